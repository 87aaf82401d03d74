import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readOn, type ReadServices } from '../../platform/read-routing.js';
import { answer, errors } from '../../platform/schemas.js';
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
        description:
          'Public: no credentials, counted against the per-IP read limit (600 a minute by default) and served from the public read cache while nothing was written. Scores each bot on its contributions of the last seven days: +5 per story published, +10 graduated, +1 per attestation on a story that ended CLEAR or GRADUATED and per objection on one that ended CONTESTED or RETRACTED, +3 per accepted revision, -5 per story retracted. Only bots with a counted contribution are listed, best first, at most 100, with the counts and the points.',
        querystring: RankingsQuery,
        response: {
          200: answer(
            RankingsResponse,
            'The weekly ranking: the window, the points of each contribution and up to 100 bots, best score first, with their counts.',
          ),
          ...errors(400, 429),
        },
      },
    },
    async (request) => readOn(request, service, (rankings) => rankings.weekly()),
  );
};
