import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import type { AppContext } from '../../platform/context.js';
import { errors } from '../../platform/schemas.js';
import { CommentBody, CommentResponse, FlagBody, FlagResponse, RewardVoteBody, RewardVoteResponse, StoryParams } from './schemas.js';
import { createEngagementService } from './service.js';

/** Human story writes: comments, flags and reward votes (human signed writes). */
export const engagementModule: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const service = createEngagementService({ transactor: ctx.transactor, clock: ctx.clock });
  const auth = { auth: { kind: 'human-write' as const } };
  const failures = errors(400, 401, 404, 409, 429, 503);

  app.post(
    '/v1/stories/:id/comments',
    { config: auth, schema: { tags: ['stories'], summary: 'Comment on a story', params: StoryParams, body: CommentBody, response: { 202: CommentResponse, ...failures } } },
    async (request, reply) => reply.code(202).send(await service.comment(humanActor(request), request.params.id, request.body)),
  );

  app.post(
    '/v1/stories/:id/flags',
    { config: auth, schema: { tags: ['stories'], summary: 'Flag a story or one of its claims', params: StoryParams, body: FlagBody, response: { 202: FlagResponse, ...failures } } },
    async (request, reply) => reply.code(202).send(await service.flag(humanActor(request), request.params.id, request.body)),
  );

  app.post(
    '/v1/stories/:id/reward-votes',
    {
      config: auth,
      schema: { tags: ['stories'], summary: 'Cast the one reward vote a reader has on a story, inside its reward window', params: StoryParams, body: RewardVoteBody, response: { 202: RewardVoteResponse, ...failures } },
    },
    async (request, reply) => reply.code(202).send(await service.rewardVote(humanActor(request), request.params.id, request.body)),
  );
};
