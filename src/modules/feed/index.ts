import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../platform/context.js';
import { errors } from '../../platform/schemas.js';
import { createFeedRepository } from './repository.js';
import { FeedQuery, FeedResponse } from './schemas.js';
import { createFeedService } from './service.js';

/** GET /v1/feed. */
export const feedModule: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const service = createFeedService({ repository: createFeedRepository(ctx.database.db), cursors: ctx.cursors });
  app.get(
    '/v1/feed',
    {
      config: { auth: { kind: 'public' }, readCache: true },
      schema: {
        tags: ['feed'],
        summary: 'Published stories by mode (trending, graduated, developing, recent), keyset-paginated',
        querystring: FeedQuery,
        response: { 200: FeedResponse, ...errors(400, 429) },
      },
    },
    async (request) => service.feed(request.query),
  );
};
