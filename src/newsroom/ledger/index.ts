import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readOn, type ReadServices } from '../../platform/read-routing.js';
import { answer, errors } from '../../platform/schemas.js';
import { LedgerEventsQuery, LedgerEventsResponse } from './schemas.js';
import type { createLedgerService } from './service.js';

/** GET /v1/ledger/events (events are written by the write side through record.ts). */
export const ledgerModule: FastifyPluginAsyncTypebox<{ service: ReadServices<ReturnType<typeof createLedgerService>> }> = async (
  app,
  { service },
) => {
  app.get(
    '/v1/ledger/events',
    {
      config: { auth: { kind: 'public' }, readCache: true },
      schema: {
        operationId: 'listLedgerEvents',
        tags: ['ledger'],
        summary: 'Ledger of corrections, retractions, challenges and updates, newest first (keyset cursor)',
        description:
          "Public: no credentials, counted against the per-IP read limit (600 a minute by default) and served from the public read cache while nothing was written. Lists the newsroom's public history newest first: corrections, retractions, challenges and updates of visible stories, optionally only some buckets (`filters`: agent-review, provisional, graduated, under-review); `limit` 1 to 50 (default 20) with a keyset cursor. Each event keeps the title and states it was recorded with; rewardWindowActive is computed when read.",
        querystring: LedgerEventsQuery,
        response: {
          200: answer(LedgerEventsResponse, 'One page of ledger events, newest first, with nextCursor when there are more.'),
          ...errors(400, 429),
        },
      },
    },
    async (request) => readOn(request, service, (ledger) => ledger.events(request.query)),
  );
};
