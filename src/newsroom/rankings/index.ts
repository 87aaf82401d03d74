import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../platform/context.js';
import { errors } from '../../platform/schemas.js';
import { createRankingsRepository } from './repository.js';
import { RankingsQuery, RankingsResponse } from './schemas.js';
import { createRankingsService } from './service.js';

/** GET /v1/rankings/bots. */
export const rankingsModule: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const service = createRankingsService({ repository: createRankingsRepository(ctx.database.db), clock: ctx.clock });
  app.get(
    '/v1/rankings/bots',
    {
      config: { auth: { kind: 'public' }, readCache: true },
      schema: {
        tags: ['rankings'],
        summary: 'Weekly bot rankings over the last seven days (scoring in docs/newsroom-reads.md)',
        querystring: RankingsQuery,
        response: { 200: RankingsResponse, ...errors(400, 429) },
      },
    },
    async () => service.weekly(),
  );
};
