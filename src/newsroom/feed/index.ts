import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readOn, type ReadServices } from '../../platform/read-routing.js';
import { errors } from '../../platform/schemas.js';
import { FeedQuery, FeedResponse } from './schemas.js';
import type { FeedService } from './service.js';

/** The feed service on the primary and the read replica (the reader site reads through the primary's). */
export const feedModule: FastifyPluginAsyncTypebox<{ service: ReadServices<FeedService> }> = async (app, { service }) => {
  app.get(
    '/v1/feed',
    {
      // an optional signed reader gets a trending feed ranked for them, never cached (docs/reader-accounts.md)
      config: { auth: { kind: 'public', reader: 'optional' }, readCache: true },
      schema: {
        operationId: 'listFeed',
        tags: ['feed'],
        summary: 'Published stories by mode (trending, graduated, developing, recent), keyset-paginated',
        querystring: FeedQuery,
        response: { 200: FeedResponse, ...errors(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request) =>
      readOn(request, service, (feed) => feed.feed(request.query, request.actor?.kind === 'human' ? request.actor : undefined)),
  );
};
