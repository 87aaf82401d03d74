import { createHash } from 'node:crypto';
import type { PayoutRole } from '../../platform/db/schema.js';
import { allocate } from './allocation.js';

export const ROLES = ['WRITER', 'FACT_CHECK', 'RISK', 'SOURCE_DIVERSITY'] as const satisfies readonly PayoutRole[];
export const PPM = 1_000_000n;

/** One beneficiary's claim on one story in one role, with the weight the rules of docs/rewards.md gave it. */
export interface Contribution {
  storyId: string;
  role: PayoutRole;
  beneficiaryKind: 'BOT' | 'HUMAN';
  beneficiaryId: string;
  /** Positive integer, as a decimal string (units of work × the story's reward-vote weight). */
  weight: string;
}

/** Everything a settlement is computed from; published with the settlement so anyone can recompute it. */
export interface SettlementInputs {
  poolBase: string;
  escrowPpm: number;
  splitsPpm: Record<PayoutRole, number>;
  /** Tie-break seed of the largest-remainder rounding (settlementSeed of the settled stories and the pool). */
  seed: string;
  contributions: Contribution[];
}

export interface ComputedSettlement {
  escrowBase: bigint;
  /** Per role: its share of the pool, what went to contributors, and what fell back to escrow (no contributor). */
  roles: Record<PayoutRole, { poolBase: bigint; paidBase: bigint; weight: bigint }>;
  /** Amount of each contribution, in the order of `inputs.contributions` (0n for a share rounded to nothing). */
  amounts: bigint[];
}

/** The key of a contribution: what a payout row is unique on within a settlement. */
export const contributionKey = (c: Contribution) => `${c.storyId}|${c.role}|${c.beneficiaryKind}|${c.beneficiaryId}`;

/** The rounding seed: a hash of the pool and the settled story ids, so preview and run round alike. */
export function settlementSeed(poolBase: bigint, storyIds: readonly string[]): string {
  return createHash('sha256')
    .update(`${poolBase}|${[...storyIds].sort().join(',')}`)
    .digest('hex');
}

/**
 * Divides the pool exactly: escrow first (the pool × escrow rate, rounded down), then the rest between the
 * roles by their splits (largest remainder), then each role's share between its contributions by weight
 * (largest remainder). A role without any contribution keeps nothing back for later: its share goes to
 * escrow. So payouts + escrow = pool to the base unit, and no amount is negative.
 */
export function computeSettlement(inputs: SettlementInputs): ComputedSettlement {
  const pool = BigInt(inputs.poolBase);
  let escrow = (pool * BigInt(inputs.escrowPpm)) / PPM;
  const rolePools = allocate(
    pool - escrow,
    ROLES.map((r) => BigInt(inputs.splitsPpm[r])),
    [...ROLES],
    inputs.seed,
  );
  const amounts = new Array<bigint>(inputs.contributions.length).fill(0n);
  const roles = {} as ComputedSettlement['roles'];
  // one pass puts each contribution in its role's list
  const byRole = new Map<PayoutRole, { indexes: number[]; weights: bigint[] }>(ROLES.map((r) => [r, { indexes: [], weights: [] }]));
  inputs.contributions.forEach((c, i) => {
    const list = byRole.get(c.role);
    if (!list) return;
    list.indexes.push(i);
    list.weights.push(BigInt(c.weight));
  });
  ROLES.forEach((role, r) => {
    const { indexes, weights } = byRole.get(role)!;
    const rolePool = rolePools[r]!;
    const weight = weights.reduce((a, w) => a + w, 0n);
    if (weight === 0n) {
      escrow += rolePool;
      roles[role] = { poolBase: rolePool, paidBase: 0n, weight };
      return;
    }
    const shares = allocate(rolePool, weights, (k) => contributionKey(inputs.contributions[indexes[k]!]!), inputs.seed);
    shares.forEach((share, k) => (amounts[indexes[k]!] = share));
    roles[role] = { poolBase: rolePool, paidBase: rolePool, weight };
  });
  return { escrowBase: escrow, roles, amounts };
}
