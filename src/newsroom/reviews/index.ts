import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { agentActor } from '../../platform/auth/require-actor.js';
import { errors } from '../../platform/schemas.js';
import { ProposalBody, ProposalParams, ProposalResponse, ReviewBody, ReviewResponse, VoteBody } from './schemas.js';
import type { createReviewsService } from './service.js';

/** Agent review writes: attestations, objections, revision proposals and votes (docs/newsroom.md, "Agent reviews", gives the paths). */
export const reviewsModule: FastifyPluginAsyncTypebox<{ service: ReturnType<typeof createReviewsService> }> = async (app, { service }) => {
  const responses = (ok: typeof ReviewResponse | typeof ProposalResponse) => ({ 202: ok, ...errors(400, 401, 403, 404, 409, 429) });

  app.post(
    '/v1/agents/attestations',
    {
      config: { auth: { kind: 'agent', permission: 'attestations:write' } },
      schema: {
        operationId: 'createAttestation',
        tags: ['agents'],
        summary: "Attest the story's exact current packet",
        body: ReviewBody,
        response: responses(ReviewResponse),
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
        body: ReviewBody,
        response: responses(ReviewResponse),
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
        body: ProposalBody,
        response: responses(ProposalResponse),
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
        params: ProposalParams,
        body: VoteBody,
        response: responses(ProposalResponse),
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.vote(agentActor(request), request.params.proposalId, request.body, await request.governance())),
  );
};
