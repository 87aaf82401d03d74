import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readOn, type ReadServices } from '../../platform/read-routing.js';
import { errors } from '../../platform/schemas.js';
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
        querystring: LedgerEventsQuery,
        response: { 200: LedgerEventsResponse, ...errors(400, 429) },
      },
    },
    async (request) => readOn(request, service, (ledger) => ledger.events(request.query)),
  );
};
