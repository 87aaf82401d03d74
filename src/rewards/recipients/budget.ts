import type { HumanActor, HumanTier } from '../../platform/auth/types.js';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import { appError } from '../../platform/errors.js';
import { paidActionsUsed, spendOnePaidAction } from './reads-repository.js';

/**
 * The daily paid-action budget: how many paid actions (today: reward votes, which direct money) one person
 * may take per UTC day, by the tier the service recorded. A person is their linked human when the signed
 * request carries one the identity records bind (so several actorIds share one budget), else the actorId.
 */
export type PaidActionLimits = Record<HumanTier, number>;

export function budgetSubject(actor: Pick<HumanActor, 'actorId' | 'linkedHumanId'>): string {
  return actor.linkedHumanId ? `human:${actor.linkedHumanId}` : `actor:${actor.actorId}`;
}

const utcDay = (now: Date) => now.toISOString().slice(0, 10);
const nextUtcMidnight = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));

export async function readBudget(db: Queryable<RewardsTables>, actor: HumanActor, limits: PaidActionLimits, now: Date) {
  const used = await paidActionsUsed(db, budgetSubject(actor), utcDay(now));
  const limit = limits[actor.tier];
  return {
    day: utcDay(now),
    tier: actor.tier,
    limit,
    used,
    remaining: Math.max(0, limit - used),
    resetsAt: nextUtcMidnight(now).toISOString(),
  };
}

/**
 * Spends one paid action inside the caller's transaction, or refuses with 429 PAID_ACTION_BUDGET_EXHAUSTED.
 * Concurrent actions of one person cannot overspend (spendOnePaidAction); when the caller's write fails
 * afterwards, the spend rolls back with it.
 */
export async function spendPaidAction(tx: Tx<RewardsTables>, actor: HumanActor, limits: PaidActionLimits, now: Date): Promise<void> {
  const limit = limits[actor.tier];
  const spent = limit > 0 && (await spendOnePaidAction(tx, budgetSubject(actor), utcDay(now), limit));
  if (!spent) {
    const retryAfterSeconds = Math.max(1, Math.ceil((nextUtcMidnight(now).getTime() - now.getTime()) / 1000));
    throw appError('PAID_ACTION_BUDGET_EXHAUSTED', {
      message: `The daily paid-action budget (${limit} for tier ${actor.tier}) is used up`,
      retryAfterSeconds,
    });
  }
}
