import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
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
        description:
          'Rewards admins only (REWARDS_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 REWARDS_ADMIN_REQUIRED otherwise). Lists settlements newest first, `limit` 1 to 100 (default 20) with a keyset cursor. Each carries its pool, escrow, paid total and role totals as exact amounts, and how many stories, contributions and payouts it covered. The answer is one page, with nextCursor when there is a next one.',
        querystring: SettlementsQuery,
        response: {
          200: answer(SettlementsPage, 'One page of settlements, newest first, with nextCursor when there are more.'),
          ...readErrors,
        },
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
        description:
          "Rewards admins only (REWARDS_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 REWARDS_ADMIN_REQUIRED otherwise). Computes what a run would pay now for `totalPoolOrbs` (display units, at most 18 decimals, minimum 0.01) over every story whose reward window closed and that no settlement covered, and writes nothing; nothing left to settle is 409 NOTHING_TO_SETTLE. Payouts of flagged cartel members and frozen targets are counted as not payable. The answer is the totals, roles, stories and each beneficiary's amount and payable amount.",
        querystring: PreviewQuery,
        response: {
          200: answer(
            Preview,
            'The preview: what a run would pay now, by role, story and beneficiary, and whether a run is possible (runnable).',
          ),
          ...readErrors,
        },
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
        description:
          'Rewards admins only (REWARDS_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 REWARDS_ADMIN_REQUIRED otherwise). Settles, in one transaction and at most once, every story whose reward window closed and that no settlement covered: escrow first, then the four roles by the policy\'s splits, then by contribution weight, in integer base units (docs/rewards.md, "The arithmetic"). Payouts are created PAYABLE, PENDING_RECIPIENT, FROZEN or REVIEW by the rules of their person; a concurrent run waits and then finds nothing (409 NOTHING_TO_SETTLE), and a paused policy is 409 REWARDS_PAUSED. A pool above SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS needs a second rewards admin: without controlPlaneRequestId it is 409 SECOND_APPROVAL_REQUIRED, whose nextAction names the settlement.run request to file (the pool and the preview digest); with it, the request must be EXECUTED (approved by another rewards admin) for exactly this pool and these stories (409 CONTROL_PLANE_REQUEST_MISMATCH, _NOT_EXECUTED, _CONSUMED otherwise) and is consumed by the run. The answer is the settlement with its totals.',
        body: RunBody,
        response: {
          202: answer(Settlement, 'Accepted: the settlement as committed, with its pool, escrow, paid and role totals and its counts.'),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.run(humanActor(request), request.body.totalPoolOrbs, request.body.controlPlaneRequestId)),
  );

  app.get(
    '/v1/rewards/settlements/:id',
    {
      config: read,
      schema: {
        operationId: 'getSettlement',
        tags,
        summary: 'A settlement with the inputs it was computed from',
        description:
          'Rewards admins only (REWARDS_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 REWARDS_ADMIN_REQUIRED otherwise). Answers a settlement with everything its computation used: the policy rates, the seed, the stories with their reward-vote weights and every contribution with its units and weight, so that `npm run settlement:verify <id>` can recompute its payouts. An unknown id is 404.',
        params: SettlementParams,
        querystring: ActorQuery,
        response: {
          200: answer(SettlementDetail, 'The settlement with its story ids and its published inputs.'),
          ...errors(400, 401, 403, 404, 409, 429, 503),
        },
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
        description:
          'Rewards admins only (REWARDS_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 REWARDS_ADMIN_REQUIRED otherwise). The payout ledger, oldest first, filtered by settlement, bot, story, role or status; `limit` 1 to 500 (default 100) with a keyset cursor. Each payout carries its beneficiary, owner, recipient, weight, amount and state (PAYABLE, PENDING_RECIPIENT, FROZEN, REVIEW) with the reason. The answer is one page, with nextCursor when there is a next one.',
        querystring: PayoutsQuery,
        response: { 200: answer(PayoutsPage, 'One page of payouts, oldest first, with nextCursor when there are more.'), ...readErrors },
      },
    },
    async (request) => {
      const { limit, cursor, settlementId, botId, storyId, role, status } = request.query;
      return service.payouts({ settlementId, botId, storyId, role, status }, limit ?? 100, cursor);
    },
  );
};
