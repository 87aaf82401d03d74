import { sql } from 'kysely';
import type { HumanActor, HumanTier } from '../../platform/auth/types.js';
import type { Queryable, Tx } from '../../platform/db/database.js';
import { appError } from '../../platform/errors.js';

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

export async function readBudget(db: Queryable, actor: HumanActor, limits: PaidActionLimits, now: Date) {
  const row = await db
    .selectFrom('paid_action_usage')
    .select('used')
    .where('subject', '=', budgetSubject(actor))
    .where('day', '=', utcDay(now))
    .executeTakeFirst();
  const limit = limits[actor.tier];
  const used = row?.used ?? 0;
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
 * One conditional upsert: concurrent actions of one person queue on the row and cannot overspend; when the
 * caller's write fails afterwards, the spend rolls back with it.
 */
export async function spendPaidAction(tx: Tx, actor: HumanActor, limits: PaidActionLimits, now: Date): Promise<void> {
  const limit = limits[actor.tier];
  const { rows } =
    limit > 0
      ? await sql<{ used: number }>`
          insert into paid_action_usage (subject, day, used) values (${budgetSubject(actor)}, ${utcDay(now)}, 1)
          on conflict (subject, day) do update set used = paid_action_usage.used + 1 where paid_action_usage.used < ${limit}
          returning used`.execute(tx)
      : { rows: [] };
  if (!rows.length) {
    const retryAfterSeconds = Math.max(1, Math.ceil((nextUtcMidnight(now).getTime() - now.getTime()) / 1000));
    throw appError('PAID_ACTION_BUDGET_EXHAUSTED', {
      message: `The daily paid-action budget (${limit} for tier ${actor.tier}) is used up`,
      retryAfterSeconds,
    });
  }
}
