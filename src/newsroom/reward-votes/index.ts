import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
import { StoryParams } from '../common/schemas.js';
import { RewardVoteBody, RewardVoteChangeBody, RewardVoteResponse } from './schemas.js';
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
        description:
          "A human signed write sent by the front end for its user (120 writes a minute per actorId). One vote per reader per story (409 REWARD_VOTE_ALREADY_CAST), only while the story's reward window is open (409 REWARD_WINDOW_CLOSED). The vote weighs the voter's tier (L3 3, L2 2) when it consumes a verified human action reward:<storyId> of the voter's own linked human, else 1; it is a paid action, counted against the person's daily budget (429 PAID_ACTION_BUDGET_EXHAUSTED). The answer is the vote with its weight.",
        params: StoryParams,
        body: RewardVoteBody,
        response: {
          202: answer(
            RewardVoteResponse,
            'Accepted: the vote as stored, with its weight, tier, the verified action it consumed and when the reward window closes.',
          ),
          ...errors(400, 401, 404, 409, 429, 503),
        },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.cast(humanActor(request), request.params.id, request.body, await request.governance())),
  );

  app.put(
    '/v1/stories/:id/reward-votes/mine',
    {
      config: { auth: { kind: 'human-write' } },
      schema: {
        operationId: 'changeRewardVote',
        tags: ['stories'],
        summary: "Change the direction of one's reward vote on a story, inside its reward window",
        description:
          "A human signed write sent by the front end for its user (120 writes a minute per actorId). Replaces the direction of the vote this reader cast on the story (404 when they cast none), only while the story's reward window is open (409 REWARD_WINDOW_CLOSED). It stays one vote per reader per story, counted in the consensus as it now stands. The weight rises to the voter's tier weight (L3 3, L2 2) when the change consumes a verified human action reward:<storyId> of the voter's own linked human, the same proof rule as the cast; a weight never falls. A change is not a new paid action. The answer is the vote with its weight and changedAt.",
        params: StoryParams,
        body: RewardVoteChangeBody,
        response: {
          200: answer(RewardVoteResponse, 'Changed: the vote as it now stands, with its weight and when it changed.'),
          ...errors(400, 401, 404, 409, 429, 503),
        },
      },
    },
    async (request) => service.change(humanActor(request), request.params.id, request.body, await request.governance()),
  );
};
