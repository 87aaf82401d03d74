import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readOn, type ReadServices } from '../../platform/read-routing.js';
import { answer, errors } from '../../platform/schemas.js';
import { SearchQuery, SearchResponse } from './schemas.js';
import type { createSearchService } from './service.js';

/** The search service on the primary and the read replica (the reader site reads through the primary's). */
export const searchModule: FastifyPluginAsyncTypebox<{ service: ReadServices<ReturnType<typeof createSearchService>> }> = async (
  app,
  { service },
) => {
  app.get(
    '/v1/search',
    {
      config: { auth: { kind: 'public' }, readCache: true },
      schema: {
        operationId: 'searchStories',
        tags: ['search'],
        summary: 'Search stories (full text when q is given, else newest first) with state, stage, review status and room filters',
        description:
          'Public: no credentials, counted against the per-IP read limit (600 a minute by default) and served from the public read cache while nothing was written. With `q` (web-search syntax, up to 500 characters) it ranks the 100 newest matching stories by relevance, stemmed in `lang` and unstemmed across languages, Chinese and Japanese by character bigrams; its last word also matches as a prefix (`librar` finds library). When a first page finds nothing, `suggestion` carries a corrected query (`libary` → `library`) that finds stories with the same filters. Without `q` it lists newest first. Filters: state, publicationStage (candidates only when asked for), reviewStatus, room (a slug in any case); the review-case filters (queue, status, assignedToActorId, targetType) add the matching fraud review cases in a public view. The answer echoes the query as applied.',
        querystring: SearchQuery,
        response: {
          200: answer(
            SearchResponse,
            'One page of matching story cards (with their rank when q is given), the query as applied, and the review cases when a review-case filter was given.',
          ),
          ...errors(400, 429),
        },
      },
    },
    async (request) => readOn(request, service, (search) => search.search(request.query)),
  );
};
