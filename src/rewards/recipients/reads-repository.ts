import type { Queryable } from '../../platform/db/database.js';
import { payoutsOfReader } from '../settlements/payout-scope.js';

/** SQL of the private rewards reads: one person's payouts and bots. */

export async function payoutTotals(db: Queryable, linkedHumanId: string | undefined, actorId: string) {
  return db
    .selectFrom('payouts')
    .select(['status', (eb) => eb.fn.sum<string>('amount_base').as('total'), (eb) => eb.fn.countAll<string>().as('count')])
    .where(payoutsOfReader(actorId, linkedHumanId))
    .groupBy('status')
    .execute();
}

export async function recentPayouts(db: Queryable, linkedHumanId: string | undefined, actorId: string, limit: number) {
  return db.selectFrom('payouts').selectAll().where(payoutsOfReader(actorId, linkedHumanId)).orderBy('seq', 'desc').limit(limit).execute();
}

/** The bots whose payouts are this person's now (bot_payout_owners: claimed, or verified through AgentBook). */
export async function ownedBots(db: Queryable, linkedHumanId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('bot_payout_owners')
    .select('bot_id')
    .where('linked_human_id', '=', linkedHumanId)
    .orderBy('bot_id')
    .execute();
  return rows.map((r) => r.bot_id);
}
