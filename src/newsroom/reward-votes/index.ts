import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { errors } from '../../platform/schemas.js';
import { StoryParams } from '../common/schemas.js';
import { RewardVoteBody, RewardVoteResponse } from './schemas.js';
import type { createRewardVotesService } from './service.js';

/** Reader reward votes (human signed writes). */
export const rewardVotesModule: FastifyPluginAsyncTypebox<{ service: ReturnType<typeof createRewardVotesService> }> = async (
  app,
  { service },
) => {
  app.post(
    '/v1/stories/:id/reward-votes',
    {
      config: { auth: { kind: 'human-write' } },
      schema: {
        operationId: 'createRewardVote',
        tags: ['stories'],
        summary: 'Cast the one reward vote a reader has on a story, inside its reward window',
        params: StoryParams,
        body: RewardVoteBody,
        response: { 202: RewardVoteResponse, ...errors(400, 401, 404, 409, 429, 503) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.cast(humanActor(request), request.params.id, request.body, await request.governance())),
  );
};
