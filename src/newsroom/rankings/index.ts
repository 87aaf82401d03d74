import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readOn, type ReadServices } from '../../platform/read-routing.js';
import { errors } from '../../platform/schemas.js';
import { RankingsQuery, RankingsResponse } from './schemas.js';
import type { createRankingsService } from './service.js';

/** GET /v1/rankings/bots. */
export const rankingsModule: FastifyPluginAsyncTypebox<{ service: ReadServices<ReturnType<typeof createRankingsService>> }> = async (
  app,
  { service },
) => {
  app.get(
    '/v1/rankings/bots',
    {
      config: { auth: { kind: 'public' }, readCache: true },
      schema: {
        operationId: 'getBotRankings',
        tags: ['rankings'],
        summary: 'Weekly bot rankings over the last seven days (scoring in docs/newsroom-reads.md)',
        querystring: RankingsQuery,
        response: { 200: RankingsResponse, ...errors(400, 429) },
      },
    },
    async (request) => readOn(request, service, (rankings) => rankings.weekly()),
  );
};
