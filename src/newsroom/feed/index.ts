import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readOn, type ReadServices } from '../../platform/read-routing.js';
import { answer, errors } from '../../platform/schemas.js';
import { FeedQuery, FeedResponse } from './schemas.js';
import type { FeedService } from './service.js';

/** The feed service on the primary and the read replica (the reader site reads through the primary's). */
export const feedModule: FastifyPluginAsyncTypebox<{ service: ReadServices<FeedService> }> = async (app, { service }) => {
  app.get(
    '/v1/feed',
    {
      // an optional signed reader gets a trending feed ranked for them, never cached
      config: { auth: { kind: 'public', reader: 'optional' }, readCache: true },
      schema: {
        operationId: 'listFeed',
        tags: ['feed'],
        summary: 'Published stories by mode (trending, graduated, developing, recent), keyset-paginated',
        description:
          'Public: no credentials, counted against the per-IP read limit (600 a minute by default) and served from the public read cache while nothing was written. Lists published, visible, not retracted stories by mode: trending (default), graduated, developing or recent, optionally in one room; `limit` 1 to 50 (default 20) with a keyset cursor bound to the mode. With an optional signed reader (the signed-read query and the signature headers) the trending feed is ranked for that reader (followed topics and unread stories first) and never cached. The answer is one page of story cards with localized labels.',
        querystring: FeedQuery,
        response: {
          200: answer(
            FeedResponse,
            'One page of story cards in the mode asked, with the localized mode name, nextCursor when there are more, and personalized when ranked for the signed reader.',
          ),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request) =>
      readOn(request, service, (feed) => feed.feed(request.query, request.actor?.kind === 'human' ? request.actor : undefined)),
  );
};
