import type { Selectable } from 'kysely';
import type { PayoutRole, PayoutsTable, SettlementsTable } from '../rows.js';
import { ROLES } from './compute.js';
import { amount } from '../money/money.js';

/** How settlements and payouts appear in bodies: amounts as display decimal and base-unit integer strings. */

export type RoleTotals = Record<PayoutRole, { poolBase: string; paidBase: string; weight: string }>;
export const money = amount;

export function presentTotals(pool: bigint, escrow: bigint, paid: bigint, roles: RoleTotals, decimals: number) {
  return {
    pool: money(pool, decimals),
    escrow: money(escrow, decimals),
    paid: money(paid, decimals),
    roles: Object.fromEntries(
      ROLES.map((r) => [
        r,
        { pool: money(BigInt(roles[r].poolBase), decimals), paid: money(BigInt(roles[r].paidBase), decimals), weight: roles[r].weight },
      ]),
    ) as Record<PayoutRole, { pool: ReturnType<typeof money>; paid: ReturnType<typeof money>; weight: string }>,
  };
}

type SettlementRow = Pick<
  Selectable<SettlementsTable>,
  | 'id'
  | 'policy_version'
  | 'pool_base'
  | 'escrow_base'
  | 'paid_base'
  | 'token_decimals'
  | 'windows_closed_before'
  | 'story_count'
  | 'contribution_count'
  | 'payout_count'
  | 'created_by'
  | 'created_at'
> & { role_totals: unknown };

export function presentSettlement(row: SettlementRow, decimals: number) {
  const d = row.token_decimals ?? decimals;
  return {
    id: row.id,
    policyVersion: row.policy_version,
    tokenDecimals: d,
    ...presentTotals(BigInt(row.pool_base), BigInt(row.escrow_base), BigInt(row.paid_base), row.role_totals as RoleTotals, d),
    windowsClosedBefore: row.windows_closed_before.toISOString(),
    storyCount: row.story_count,
    contributionCount: row.contribution_count,
    payoutCount: row.payout_count,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
  };
}

export function presentPayout(row: Selectable<PayoutsTable>, decimals: number) {
  return {
    id: row.id,
    settlementId: row.settlement_id,
    storyId: row.story_id,
    role: row.role,
    beneficiaryKind: row.beneficiary_kind,
    beneficiaryId: row.beneficiary_id,
    botId: row.bot_id,
    linkedHumanId: row.linked_human_id,
    recipientId: row.recipient_id,
    weight: row.weight,
    amount: money(BigInt(row.amount_base), decimals),
    status: row.status,
    statusReason: row.status_reason,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
