import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../platform/context.js';
import { errors } from '../../platform/schemas.js';
import { createSearchRepository } from './repository.js';
import { SearchQuery, SearchResponse } from './schemas.js';
import { createSearchService } from './service.js';
import { publicReviewCases } from '../../rewards/review/public-view.js';

/** The search service on the app's database (the route below and the reader site read through the same one). */
export const searchServiceFor = (ctx: AppContext) =>
  createSearchService({
    repository: createSearchRepository(ctx.database.db),
    cursors: ctx.cursors,
    reviewCases: (filters, limit) => publicReviewCases(ctx.database.db, filters, new Date(ctx.clock.now()), limit),
  });

/** GET /v1/search. */
export const searchModule: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const service = searchServiceFor(ctx);
  app.get(
    '/v1/search',
    {
      config: { auth: { kind: 'public' }, readCache: true },
      schema: {
        tags: ['search'],
        summary: 'Search stories (full text when q is given, else newest first) with state, stage, review status and room filters',
        querystring: SearchQuery,
        response: { 200: SearchResponse, ...errors(400, 429) },
      },
    },
    async (request) => service.search(request.query),
  );
};
