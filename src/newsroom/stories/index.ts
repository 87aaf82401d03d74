import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { HumanActor } from '../../platform/auth/types.js';
import { readOn, type ReadServices } from '../../platform/read-routing.js';
import { errors } from '../../platform/schemas.js';
import { ConsensusResponse, MachineRoomResponse, SourcesResponse, VersionsResponse } from './evidence-schemas.js';
import { StoryParams } from '../common/schemas.js';
import { MachineRoomParams, NoQuery, StoryReadQuery, StoryResponse } from './schemas.js';
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

  // A signed reader may read a story too (docs/reader-accounts.md): the read goes into their personalization
  // history when their preferences allow it, and the answer is never cached.
  const detailConfig = { auth: { kind: 'public' as const, reader: 'optional' as const }, readCache: { story: 'id' } };

  // One handler for the story and its compatibility aliases: the three answer the same body.
  for (const [path, operationId, summary] of [
    ['/v1/stories/:id', 'getStory', 'A story: current packet, state, counts, reward window and links'],
    ['/v1/article/:id', 'getArticle', 'Compatibility alias of GET /v1/stories/{id} (same body)'],
    ['/v1/cluster/:id', 'getCluster', 'Legacy alias of GET /v1/stories/{id} (same body)'],
  ] as const) {
    app.get(
      path,
      {
        config: detailConfig,
        schema: {
          operationId,
          tags: ['stories'],
          summary,
          params: StoryParams,
          querystring: StoryReadQuery,
          response: { 200: StoryResponse, ...errors(400, 401, 403, 404, 409, 429, 503) },
        },
      },
      async (request) => {
        const story = await readOn(request, service, (stories) => stories.detail(request.params.id, request.query.lang ?? 'en'));
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
        params: StoryParams,
        querystring: NoQuery,
        response: { 200: VersionsResponse, ...failures },
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
        params: StoryParams,
        querystring: NoQuery,
        response: { 200: SourcesResponse, ...failures },
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
        params: StoryParams,
        querystring: NoQuery,
        response: { 200: ConsensusResponse, ...failures },
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
        params: MachineRoomParams,
        querystring: NoQuery,
        response: { 200: MachineRoomResponse, ...failures },
      },
    },
    async (request) => readOn(request, service, (stories) => stories.machineRoom(request.params.storyId)),
  );
};
