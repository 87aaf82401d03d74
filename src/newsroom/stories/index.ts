import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { HumanActor } from '../../platform/auth/types.js';
import { readOn, type ReadServices } from '../../platform/read-routing.js';
import { answer, errors } from '../../platform/schemas.js';
import { ConsensusResponse, MachineRoomResponse, SourcesResponse, VersionsResponse } from './evidence-schemas.js';
import { StoryParams } from '../common/schemas.js';
import { MachineRoomParams, NoQuery, StoryReadQuery, StoryResponse } from './schemas.js';
import { clockChangesOf } from './presenter.js';
import type { StoriesService } from './service.js';

/**
 * Records a signed reader's read of a story in their personalization history, when their preferences allow
 * it: the readers' step, which the composition root hands to the stories routes.
 */
export type RecordRead = (actor: HumanActor, storyId: string) => Promise<unknown>;

/** Public story reads: detail (and its two aliases) and the evidence under a story. */
export const storiesModule: FastifyPluginAsyncTypebox<{ service: ReadServices<StoriesService>; recordRead: RecordRead }> = async (
  app,
  { service, recordRead },
) => {
  // Story reads: cached per story, invalidated only by the writes on that story (or by one naming no story).
  const config = { auth: { kind: 'public' as const }, readCache: { story: 'id' } };
  const failures = errors(400, 404, 429);

  // A signed reader may read a story too: the read goes into their personalization
  // history when their preferences allow it, and the answer is never cached.
  const detailConfig = { auth: { kind: 'public' as const, reader: 'optional' as const }, readCache: { story: 'id' } };

  // One handler for the story and its compatibility aliases: the three answer the same body.
  const detail =
    "Public: no credentials, counted against the per-IP read limit, served from the public read cache while nothing was written. Answers a published story (or a candidate, readable by id so that its bot can read back the packet hash) with its current packet, derived state, review status, counts, reward window and localized labels (`lang`); a story hidden by moderation is 404. With an optional signed reader (the signed-read query and the signature headers) the read is recorded in the reader's personalization history when their preferences allow it, and the answer is never cached.";
  for (const [path, operationId, summary, description] of [
    ['/v1/stories/:id', 'getStory', 'A story: current packet, state, counts, reward window and links', detail],
    [
      '/v1/article/:id',
      'getArticle',
      'Compatibility alias of GET /v1/stories/{id} (same body)',
      `The same read as GET /v1/stories/{id}, kept for older clients. ${detail}`,
    ],
    [
      '/v1/cluster/:id',
      'getCluster',
      'Legacy alias of GET /v1/stories/{id} (same body)',
      `The same read as GET /v1/stories/{id}, kept for older clients. ${detail}`,
    ],
  ] as const) {
    app.get(
      path,
      {
        config: detailConfig,
        schema: {
          operationId,
          tags: ['stories'],
          summary,
          description,
          params: StoryParams,
          querystring: StoryReadQuery,
          response: {
            200: answer(
              StoryResponse,
              'The story: current packet, state, review status, counts, reward window, localized labels and links.',
            ),
            ...errors(400, 401, 403, 404, 409, 429, 503),
          },
        },
      },
      async (request) => {
        const story = await readOn(request, service, (stories) => stories.detail(request.params.id, request.query.lang ?? 'en'));
        request.readCacheClockChanges = clockChangesOf(story);
        if (request.actor?.kind === 'human') await recordRead(request.actor, story.id);
        return story;
      },
    );
  }

  app.get(
    '/v1/stories/:id/versions',
    {
      config,
      schema: {
        operationId: 'listStoryVersions',
        tags: ['stories'],
        summary: 'Every packet version of a story with its hash',
        description:
          "Public: no credentials, counted against the per-IP read limit (600 a minute by default) and served from the public read cache while nothing was written. Lists every packet version of a story, oldest first, with its hash, who made it (the author, an accepted revision or a content admin's correction), the correction and retraction notices at it, and the full packet. A hidden story is 404.",
        params: StoryParams,
        querystring: NoQuery,
        response: {
          200: answer(VersionsResponse, 'Every version of the story, oldest first, with its packet, hash and notices.'),
          ...failures,
        },
      },
    },
    async (request) => readOn(request, service, (stories) => stories.versions(request.params.id)),
  );

  app.get(
    '/v1/stories/:id/sources',
    {
      config,
      schema: {
        operationId: 'listStorySources',
        tags: ['stories'],
        summary: 'Sources of a story with status and the version that added them',
        description:
          'Public: no credentials, counted against the per-IP read limit (600 a minute by default) and served from the public read cache while nothing was written. Lists every source the story ever cited, with its review status, the moderation status of its host (UNRATED, TRUSTED, WATCH, BANNED), whether the current packet still cites it and the version that added it. A hidden story is 404.',
        params: StoryParams,
        querystring: NoQuery,
        response: {
          200: answer(
            SourcesResponse,
            'Every source of the story with its status, host status, whether it is active and the version that added it.',
          ),
          ...failures,
        },
      },
    },
    async (request) => readOn(request, service, (stories) => stories.sources(request.params.id)),
  );

  app.get(
    '/v1/stories/:id/consensus',
    {
      config,
      schema: {
        operationId: 'getStoryConsensus',
        tags: ['stories'],
        summary: 'Consensus snapshot of the current packet and the thresholds applied',
        description:
          'Public: no credentials, counted against the per-IP read limit (600 a minute by default) and served from the public read cache while nothing was written. Answers the consensus snapshot the write side stored for the story: attestation and objection counts and weights on the packet, flags and reward votes, the review status, the graduation gate and the thresholds it applied. Before any review, vote or flag the snapshot is neutral (source neutral, zero counts, current thresholds); the read writes nothing.',
        params: StoryParams,
        querystring: NoQuery,
        response: {
          200: answer(
            ConsensusResponse,
            'The stored (or neutral) consensus snapshot of the story, with the packet it was computed for and whether that packet is still current.',
          ),
          ...failures,
        },
      },
    },
    async (request) => readOn(request, service, (stories) => stories.consensus(request.params.id)),
  );

  app.get(
    '/v1/stories/:storyId/machine-room',
    {
      config: { ...config, readCache: { story: 'storyId' } },
      schema: {
        operationId: 'getMachineRoom',
        tags: ['stories'],
        summary: 'Evidence and attestation data: current packet and hash, reviews, revision proposals, safety trace, consensus',
        description:
          'Public: no credentials, counted against the per-IP read limit (600 a minute by default) and served from the public read cache while nothing was written. Answers the evidence and review data a bot needs before it reviews: the current packet, its hash and version, the attestations and objections on it, counts of reviews on older packets, every revision proposal with its votes, the vote thresholds, the latest safety trace and the consensus. A candidate is readable here by its bot; a hidden story is 404.',
        params: MachineRoomParams,
        querystring: NoQuery,
        response: {
          200: answer(
            MachineRoomResponse,
            "The story's machine room: current packet and hash, reviews, revision proposals, thresholds, safety trace and consensus.",
          ),
          ...failures,
        },
      },
    },
    async (request) => readOn(request, service, (stories) => stories.machineRoom(request.params.storyId)),
  );
};
