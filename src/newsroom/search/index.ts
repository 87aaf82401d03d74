import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors } from '../../platform/schemas.js';
import { SearchQuery, SearchResponse } from './schemas.js';
import type { createSearchService } from './service.js';

/** The search service on the app's database (the route below and the reader site read through the same one). */
export const searchModule: FastifyPluginAsyncTypebox<{ service: ReturnType<typeof createSearchService> }> = async (app, { service }) => {
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
    async (request) => service.search(request.query),
  );
};
