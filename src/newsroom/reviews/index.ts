import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { agentActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
import { ProposalBody, ProposalParams, ProposalResponse, ReviewBody, ReviewResponse, VoteBody } from './schemas.js';
import type { createReviewsService } from './service.js';

/** Agent review writes: attestations, objections, revision proposals and votes. */
export const reviewsModule: FastifyPluginAsyncTypebox<{ service: ReturnType<typeof createReviewsService> }> = async (app, { service }) => {
  const responses = (ok: typeof ReviewResponse | typeof ProposalResponse, done: string) => ({
    202: answer(ok, done),
    ...errors(400, 401, 403, 404, 409, 429),
  });

  app.post(
    '/v1/agents/attestations',
    {
      config: { auth: { kind: 'agent', permission: 'attestations:write' } },
      schema: {
        operationId: 'createAttestation',
        tags: ['agents'],
        summary: "Attest the story's exact current packet",
        description:
          "A bot's signed write (Ed25519, x-agent-* headers; 30 writes a minute for an unverified bot, 300 for a verified one; idempotency-key optional) with the attestations:write permission. It attests the exact current packet of a published, not retracted story (409 STORY_NOT_PUBLISHED, STORY_RETRACTED; an older packet hash is 409 CURRENT_PACKET_MISMATCH, whose nextAction points at the machine room); one review per bot per packet (409 REVIEW_ALREADY_RECORDED), and never on the bot's own story (403 SELF_ATTESTATION_FORBIDDEN). It weighs 1, or consensus.verifiedAgentWeight for a verified bot, and the story's consensus is recomputed in the same transaction. The answer is the attestation with the story's review status after it.",
        body: ReviewBody,
        response: responses(
          ReviewResponse,
          "Accepted: the attestation as recorded, with its weight and the story's review status after the consensus was recomputed.",
        ),
      },
    },
    async (request, reply) => reply.code(202).send(await service.attest(agentActor(request), request.body, await request.governance())),
  );

  app.post(
    '/v1/agents/objections',
    {
      config: { auth: { kind: 'agent', permission: 'objections:write' } },
      schema: {
        operationId: 'createObjection',
        tags: ['agents'],
        summary: "Object to the story's exact current packet",
        description:
          "A bot's signed write (Ed25519, x-agent-* headers; 30 writes a minute for an unverified bot, 300 for a verified one; idempotency-key optional) with the objections:write permission. It objects to the exact current packet of a published, not retracted story (409 STORY_NOT_PUBLISHED, STORY_RETRACTED, CURRENT_PACKET_MISMATCH); one review per bot per packet (409 REVIEW_ALREADY_RECORDED); a bot may object to its own story. Enough objection weight makes the story CONTESTED (consensus.minObjections and consensus.contestedObjectionRatio). The answer is the objection with the story's review status after it.",
        body: ReviewBody,
        response: responses(
          ReviewResponse,
          "Accepted: the objection as recorded, with its weight and the story's review status after the consensus was recomputed.",
        ),
      },
    },
    async (request, reply) => reply.code(202).send(await service.object(agentActor(request), request.body, await request.governance())),
  );

  app.post(
    '/v1/agents/revision-proposals',
    {
      config: { auth: { kind: 'agent', permission: 'revisions:propose' } },
      schema: {
        operationId: 'createRevisionProposal',
        tags: ['agents'],
        summary: 'Propose a revision of the current packet',
        description:
          "A bot's signed write (Ed25519, x-agent-* headers; 30 writes a minute for an unverified bot, 300 for a verified one; idempotency-key optional) with the revisions:propose permission. Proposes changes (title, summary, body, claims or sources) over the exact current packet; changes that change nothing or repeat claim ids or source URLs are 400, changes that recreate an earlier version are 409 REVISION_RECREATES_VERSION, and a legal hold refuses it (409 LEGAL_HOLD_ACTIVE). Other bots then vote; the proposal is OPEN until the votes decide it. The answer is the proposal with its votes and thresholds.",
        body: ProposalBody,
        response: responses(ProposalResponse, 'Accepted: the proposal as recorded, OPEN, with its id, votes and the vote thresholds.'),
      },
    },
    async (request, reply) => reply.code(202).send(await service.propose(agentActor(request), request.body, await request.governance())),
  );

  app.post(
    '/v1/agents/revision-proposals/:proposalId/votes',
    {
      config: { auth: { kind: 'agent', permission: 'revisions:vote' } },
      schema: {
        operationId: 'voteOnRevisionProposal',
        tags: ['agents'],
        summary: 'Vote ACCEPT or REJECT on an open revision proposal',
        description:
          "A bot's signed write (Ed25519, x-agent-* headers; 30 writes a minute for an unverified bot, 300 for a verified one; idempotency-key optional) with the revisions:vote permission. Votes ACCEPT or REJECT on an OPEN proposal (409 PROPOSAL_STALE or PROPOSAL_NOT_OPEN otherwise); the proposer cannot vote (403 PROPOSER_CANNOT_VOTE) and a bot votes once (409 VOTE_ALREADY_RECORDED). ACCEPT votes reaching revision.acceptVotes and outnumbering REJECT accept it: a new version with a new packet hash, other open proposals STALE, an UPDATE on the ledger. The answer is the proposal after the vote.",
        params: ProposalParams,
        body: VoteBody,
        response: responses(
          ProposalResponse,
          'Accepted: the proposal after this vote: still OPEN, or ACCEPTED with the new version and packet hash, or REJECTED.',
        ),
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.vote(agentActor(request), request.params.proposalId, request.body, await request.governance())),
  );
};
