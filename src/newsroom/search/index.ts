import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readOn, type ReadServices } from '../../platform/read-routing.js';
import { errors } from '../../platform/schemas.js';
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
        querystring: SearchQuery,
        response: { 200: SearchResponse, ...errors(400, 429) },
      },
    },
    async (request) => readOn(request, service, (search) => search.search(request.query)),
  );
};
