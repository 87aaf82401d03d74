import type { ExpressionBuilder } from 'kysely';
import type { Queryable } from '../../platform/db/database.js';
import type { DB } from '../../platform/db/schema.js';

/** SQL of the private rewards reads: one person's payouts and bots. */

/** The payouts that belong to a person: of their linked human (bots they own, their flags) or of their actorId. */
function ofPerson(linkedHumanId: string | undefined, actorId: string) {
  return (eb: ExpressionBuilder<DB, 'payouts'>) =>
    eb.or([
      ...(linkedHumanId ? [eb('linked_human_id', '=', linkedHumanId)] : []),
      eb.and([eb('beneficiary_kind', '=', 'HUMAN'), eb('beneficiary_id', '=', actorId)]),
    ]);
}

export async function payoutTotals(db: Queryable, linkedHumanId: string | undefined, actorId: string) {
  return db
    .selectFrom('payouts')
    .select(['status', (eb) => eb.fn.sum<string>('amount_base').as('total'), (eb) => eb.fn.countAll<string>().as('count')])
    .where(ofPerson(linkedHumanId, actorId))
    .groupBy('status')
    .execute();
}

export async function recentPayouts(db: Queryable, linkedHumanId: string | undefined, actorId: string, limit: number) {
  return db.selectFrom('payouts').selectAll().where(ofPerson(linkedHumanId, actorId)).orderBy('seq', 'desc').limit(limit).execute();
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
