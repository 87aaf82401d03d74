import { createHash } from 'node:crypto';
import type { PayoutRole } from '../rows.js';
import { allocate, allocateClasses, classesTotal, weightClasses, type WeightClasses } from './allocation.js';

export const ROLES = ['WRITER', 'FACT_CHECK', 'RISK', 'SOURCE_DIVERSITY'] as const satisfies readonly PayoutRole[];
export const PPM = 1_000_000n;
const NO_ROLE = 255;

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

/** The pool divided down to the roles: escrow, each role's share, and each role's contributions and weights. */
export interface PoolSplit {
  escrowBase: bigint;
  /** What goes to contributors: the pool less escrow (the roles' paidBase added up). */
  paidBase: bigint;
  roles: ComputedSettlement['roles'];
  /** Per role: the indexes (into `inputs.contributions`) of its contributions and their weights, by class. */
  byRole: Map<PayoutRole, { indexes: Int32Array; classes: WeightClasses }>;
}

/**
 * The first steps of the division: escrow (the pool × escrow rate, rounded down), then the rest between the
 * roles by their splits (largest remainder). A role without any contribution keeps nothing back for later: its
 * share goes to escrow. Everything but the single contributions' amounts, so a run can record its totals
 * before the long step (`divideShares`).
 */
export function splitPool(inputs: SettlementInputs): PoolSplit {
  const pool = BigInt(inputs.poolBase);
  let escrowBase = (pool * BigInt(inputs.escrowPpm)) / PPM;
  const rolePools = allocate(
    pool - escrowBase,
    ROLES.map((r) => BigInt(inputs.splitsPpm[r])),
    [...ROLES],
    inputs.seed,
  );
  const roles = {} as ComputedSettlement['roles'];
  // each contribution's role, then each role's list of contributions (typed arrays: a million numbers each), then
  // each role's weights grouped by class
  const { contributions } = inputs;
  const roleOf = new Uint8Array(contributions.length);
  const counts = ROLES.map(() => 0);
  for (let i = 0; i < contributions.length; i++) {
    const r = ROLES.indexOf(contributions[i]!.role);
    roleOf[i] = r < 0 ? NO_ROLE : r; // a role that none pays (no run writes one) shares in nothing
    if (r >= 0) counts[r]!++;
  }
  const lists = counts.map((n) => new Int32Array(n));
  const filled = ROLES.map(() => 0);
  for (let i = 0; i < contributions.length; i++) {
    const r = roleOf[i]!;
    if (r !== NO_ROLE) lists[r]![filled[r]!++] = i;
  }
  const byRole: PoolSplit['byRole'] = new Map(
    ROLES.map((role, r) => {
      const list = lists[r]!;
      return [role, { indexes: list, classes: weightClasses(list.length, (k) => contributions[list[k]!]!.weight) }];
    }),
  );
  ROLES.forEach((role, r) => {
    const rolePool = rolePools[r]!;
    const weight = classesTotal(byRole.get(role)!.classes);
    if (weight === 0n) escrowBase += rolePool;
    roles[role] = { poolBase: rolePool, paidBase: weight === 0n ? 0n : rolePool, weight };
  });
  return { escrowBase, paidBase: pool - escrowBase, roles, byRole };
}

/**
 * The last step: each role's share between its contributions by weight (largest remainder). Returns the amount
 * of each contribution, in the order of `inputs.contributions`; a role's amounts add up to its paidBase.
 */
export function divideShares(inputs: SettlementInputs, split: PoolSplit): bigint[] {
  const amounts = new Array<bigint>(inputs.contributions.length).fill(0n);
  for (const role of ROLES) {
    const { indexes, classes } = split.byRole.get(role)!;
    const { paidBase } = split.roles[role];
    if (paidBase === 0n) continue;
    const shares = allocateClasses(paidBase, classes, (k) => contributionKey(inputs.contributions[indexes[k]!]!), inputs.seed);
    for (let k = 0; k < shares.length; k++) amounts[indexes[k]!] = shares[k]!;
  }
  return amounts;
}

/**
 * Divides the pool exactly (splitPool, then divideShares): so payouts + escrow = pool to the base unit, and no
 * amount is negative.
 */
export function computeSettlement(inputs: SettlementInputs): ComputedSettlement {
  const split = splitPool(inputs);
  return { escrowBase: split.escrowBase, roles: split.roles, amounts: divideShares(inputs, split) };
}
