import { sql } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import { payoutsOfReader } from '../payout-scope-repository.js';

/** SQL of the private rewards reads: one person's payouts and bots. */

export async function payoutTotals(db: Queryable<RewardsTables>, linkedHumanId: string | undefined, actorId: string) {
  return db
    .selectFrom('payouts')
    .select(['status', (eb) => eb.fn.sum<string>('amount_base').as('total'), (eb) => eb.fn.countAll<string>().as('count')])
    .where(payoutsOfReader(actorId, linkedHumanId))
    .groupBy('status')
    .execute();
}

export async function recentPayouts(db: Queryable<RewardsTables>, linkedHumanId: string | undefined, actorId: string, limit: number) {
  return db.selectFrom('payouts').selectAll().where(payoutsOfReader(actorId, linkedHumanId)).orderBy('seq', 'desc').limit(limit).execute();
}

/** The bots whose payouts are this person's now (bot_payout_owners: claimed, or verified through AgentBook). */
export async function ownedBots(db: Queryable<RewardsTables>, linkedHumanId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('bot_payout_owners')
    .select('bot_id')
    .where('linked_human_id', '=', linkedHumanId)
    .orderBy('bot_id')
    .execute();
  return rows.map((r) => r.bot_id);
}

/** The paid actions `subject` (a budget subject) took on `day` (YYYY-MM-DD, UTC); 0 before the first. */
export async function paidActionsUsed(db: Queryable<RewardsTables>, subject: string, day: string): Promise<number> {
  const row = await db
    .selectFrom('paid_action_usage')
    .select('used')
    .where('subject', '=', subject)
    .where('day', '=', day)
    .executeTakeFirst();
  return row?.used ?? 0;
}

/**
 * Counts one more paid action of `subject` on `day` unless it already took `limit`: one conditional upsert, so
 * concurrent actions of one person queue on the row and cannot overspend. False when the budget is used up.
 */
export async function spendOnePaidAction(tx: Tx<RewardsTables>, subject: string, day: string, limit: number): Promise<boolean> {
  const { rows } = await sql<{ used: number }>`
    insert into paid_action_usage (subject, day, used) values (${subject}, ${day}, 1)
    on conflict (subject, day) do update set used = paid_action_usage.used + 1 where paid_action_usage.used < ${limit}
    returning used`.execute(tx);
  return rows.length > 0;
}
