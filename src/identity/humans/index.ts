import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { errors } from '../../platform/schemas.js';
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
 * verification and multi-provider human proofs. Every success is 202 with what was recorded
 * (docs/api-conventions.md, "Requests and answers").
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
        body: LoginChallengeBody,
        response: { 202: LoginChallengeResponse, ...errors(400, 401, 403, 409, 429, 503) },
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
        body: LoginVerifyBody,
        response: { 202: LoginVerifyResponse, ...errors(400, 401, 403, 404, 409, 410, 429, 503) },
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
        body: WorldIdVerifyBody,
        response: { 202: VerifiedActionResponse, ...errors(400, 401, 403, 404, 409, 429, 503) },
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
        body: HumanProofVerifyBody,
        response: { 202: VerifiedActionResponse, ...errors(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.verifyHumanAction(humanActor(request), request.body.provider, request.body)),
  );
};
