import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { errors } from '../../platform/schemas.js';
import {
  ActorQuery,
  PayoutsPage,
  PayoutsQuery,
  Preview,
  PreviewQuery,
  RunBody,
  Settlement,
  SettlementDetail,
  SettlementParams,
  SettlementsPage,
  SettlementsQuery,
} from './schemas.js';
import type { createSettlementService } from './service.js';

/** Settlements and payouts (rewards admins): preview, run, and the payout ledger. */
export const settlementsModule: FastifyPluginAsyncTypebox<{ service: ReturnType<typeof createSettlementService> }> = async (
  app,
  { service },
) => {
  const tags = ['rewards'];
  const read = { auth: { kind: 'human-read', admin: 'rewards' } } as const;
  const readErrors = errors(400, 401, 403, 409, 429, 503);

  app.get(
    '/v1/rewards/settlements',
    {
      config: read,
      schema: {
        operationId: 'listSettlements',
        tags,
        summary: 'Settlements, newest first',
        querystring: SettlementsQuery,
        response: { 200: SettlementsPage, ...readErrors },
      },
    },
    async (request) => service.list(request.query.limit ?? 20, request.query.cursor),
  );

  app.get(
    '/v1/rewards/settlements/preview',
    {
      config: read,
      schema: {
        operationId: 'previewSettlement',
        tags,
        summary: 'What a run would pay now for totalPoolOrbs (writes nothing)',
        querystring: PreviewQuery,
        response: { 200: Preview, ...readErrors },
      },
    },
    async (request) => service.preview(humanActor(request), request.query.totalPoolOrbs),
  );

  app.post(
    '/v1/rewards/settlements/run',
    {
      config: { auth: { kind: 'human-write', admin: 'rewards' } },
      schema: {
        operationId: 'runSettlement',
        tags,
        summary: 'Settle every story whose reward window closed and that no settlement covered',
        body: RunBody,
        response: { 202: Settlement, ...errors(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request, reply) => reply.code(202).send(await service.run(humanActor(request), request.body.totalPoolOrbs)),
  );

  app.get(
    '/v1/rewards/settlements/:id',
    {
      config: read,
      schema: {
        operationId: 'getSettlement',
        tags,
        summary: 'A settlement with the inputs it was computed from',
        params: SettlementParams,
        querystring: ActorQuery,
        response: { 200: SettlementDetail, ...errors(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request) => service.get(request.params.id),
  );

  app.get(
    '/v1/rewards/payouts',
    {
      config: read,
      schema: {
        operationId: 'listPayouts',
        tags,
        summary: 'The payout ledger, oldest first',
        querystring: PayoutsQuery,
        response: { 200: PayoutsPage, ...readErrors },
      },
    },
    async (request) => {
      const { limit, cursor, settlementId, botId, storyId, role, status } = request.query;
      return service.payouts({ settlementId, botId, storyId, role, status }, limit ?? 100, cursor);
    },
  );
};
