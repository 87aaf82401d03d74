import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
import {
  HumanProofVerifyBody,
  LoginChallengeBody,
  LoginChallengeResponse,
  LoginVerifyBody,
  LoginVerifyResponse,
  VerifiedActionResponse,
  WorldIdVerifyBody,
} from './schemas.js';
import type { createIdentityService } from './service.js';

/**
 * Human identity (human signed writes, signed by the front end for its user): World ID login, governance
 * verification and multi-provider human proofs. Every success is 202 with what was recorded.
 */
export const identityModule: FastifyPluginAsyncTypebox<{ service: ReturnType<typeof createIdentityService> }> = async (
  app,
  { service },
) => {
  const auth = { auth: { kind: 'human-write' as const } };
  const tags = ['identity'];

  app.post(
    '/v1/session/worldid/challenge',
    {
      config: auth,
      schema: {
        operationId: 'createLoginChallenge',
        tags,
        summary: 'Start a World ID login: a single-use challenge (5 minutes) with the signal and action to give IDKit',
        description:
          "Starts a World ID login for the signed actor (a human signed write sent by the front end; `verified` may be false, since the person is not known yet). The challenge belongs to this actorId, is used once and lives 5 minutes; run IDKit with its `action` and `signal`, then send the proof to POST /v1/session/worldid/verify. Human writes count against the actor's limit (120 a minute by default). The answer holds the challengeId, the signal and its hash, the action and the expiry.",
        body: LoginChallengeBody,
        response: {
          202: answer(
            LoginChallengeResponse,
            'Accepted: the challenge as recorded, with the signal and action to give IDKit and its expiry (5 minutes).',
          ),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await service.createLoginChallenge(humanActor(request))),
  );

  app.post(
    '/v1/session/worldid/verify',
    {
      config: auth,
      schema: {
        operationId: 'verifyLogin',
        tags,
        summary: "Complete a World ID login with the challenge and IDKit's proof: binds actorId to the person's linkedHumanId",
        description:
          "Completes a World ID login: the proof must be made for the login action and the challenge's signalHash, and the challenge must be this actor's, unused (409 CHALLENGE_USED) and unexpired (410 CHALLENGE_EXPIRED). The person is recorded at tier L3 and the actorId is bound to their linkedHumanId (`h_` + 32 hex derived from the nullifier) for WORLDID_SESSION_TTL_SECONDS (7 days by default); an actorId in a live session with another person is 409 ACTOR_BOUND_TO_OTHER_HUMAN. A proof that does not verify is 403 HUMAN_PROOF_INVALID and leaves the challenge usable. The answer is the linkedHumanId to sign with from now on, the tier and the end of the session.",
        body: LoginVerifyBody,
        response: {
          202: answer(
            LoginVerifyResponse,
            'Accepted: the actor is bound to the person; the linkedHumanId to sign with from now on, tier L3 and when the binding ends.',
          ),
          ...errors(400, 401, 403, 404, 409, 410, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await service.verifyLogin(humanActor(request), request.body)),
  );

  app.post(
    '/v1/worldid/verify',
    {
      config: auth,
      schema: {
        operationId: 'verifyWorldIdAction',
        tags,
        summary: 'Record a World ID verified human action (graduate:, reward:, flag_high_severity:) that its operation accepts once',
        description:
          "Records a World ID proof of a verified human action: `graduate:<storyId>`, `reward:<storyId>` or `flag_high_severity:<claimId>` (anything else is 400 HUMAN_ACTION_NOT_ALLOWED), on a story or claim the public can read (404 otherwise). The actor must already be bound to a person by a login (403 HUMAN_LOGIN_REQUIRED); the triple (provider, action, nullifier) is accepted once (409 NULLIFIER_REUSED). The action is then consumed once by the operation it names: the graduation gate, a HIGH flag, or a reward vote's tier weight. The answer is the recorded action, whose linked human and raised tier it carries.",
        body: WorldIdVerifyBody,
        response: {
          202: answer(
            VerifiedActionResponse,
            'Accepted: the verified human action as recorded, with its id, the linked human it belongs to and the tier after this proof.',
          ),
          ...errors(400, 401, 403, 404, 409, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await service.verifyHumanAction(humanActor(request), 'world_id', request.body)),
  );

  app.post(
    '/v1/human-proof/verify',
    {
      config: auth,
      schema: {
        operationId: 'verifyHumanProof',
        tags,
        summary: 'Record a verified human action proven with world_id (L3), passport or phone (L2); raises the human tier',
        description:
          "Records a verified human action proven by any provider: `world_id` records the person at L3, `passport` or `phone` at L2 (a tier is raised, never lowered). The same actions and once-only rule as POST /v1/worldid/verify apply; an actor without a binding who proves with passport or phone gets a new L2 linked human and a session, which is how a person without World ID obtains a linkedHumanId. Each accepted proof moves the binding's session on. The answer is the recorded action with the linked human and tier.",
        body: HumanProofVerifyBody,
        response: {
          202: answer(
            VerifiedActionResponse,
            'Accepted: the verified human action as recorded, with the linked human (new for a first passport or phone proof) and its tier now.',
          ),
          ...errors(400, 401, 403, 404, 409, 429, 503),
        },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.verifyHumanAction(humanActor(request), request.body.provider, request.body)),
  );
};
