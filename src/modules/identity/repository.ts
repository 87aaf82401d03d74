import type { Queryable, Tx } from '../../platform/db/database.js';
import type { HumanTier } from '../../platform/auth/types.js';

/** SQL of the human identity records and the verified human actions. */

/**
 * The tier recorded for `linkedHumanId` when the identity records bind it to `actorId`; null when they do not
 * (no binding, or a binding to another human).
 */
export async function findBoundTier(db: Queryable, actorId: string, linkedHumanId: string): Promise<HumanTier | null> {
  const row = await db
    .selectFrom('actor_bindings as b')
    .innerJoin('human_identities as h', 'h.linked_human_id', 'b.linked_human_id')
    .select('h.tier')
    .where('b.actor_id', '=', actorId)
    .where('b.linked_human_id', '=', linkedHumanId)
    .executeTakeFirst();
  return row?.tier ?? null;
}

/** Inserts a verified action; null when (provider, action, nullifier_hash) was used before (unique key). */
export async function insertVerifiedAction(
  db: Queryable,
  row: { id: string; action: string; linkedHumanId: string; provider: string; nullifierHash: string; at: Date },
): Promise<string | null> {
  const inserted = await db
    .insertInto('verified_human_actions')
    .values({ id: row.id, action: row.action, linked_human_id: row.linkedHumanId, provider: row.provider, nullifier_hash: row.nullifierHash, created_at: row.at })
    .onConflict((oc) => oc.columns(['provider', 'action', 'nullifier_hash']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id ?? null;
}

/**
 * Locks the oldest open verified action for `action` (optionally proven by `linkedHumanId`), skipping rows
 * another transaction holds, so concurrent operations never take the same one.
 */
export async function lockOpenAction(tx: Tx, action: string, linkedHumanId?: string): Promise<string | null> {
  let pick = tx.selectFrom('verified_human_actions').select('id').where('action', '=', action).where('consumed_at', 'is', null).orderBy('created_at').limit(1).forUpdate().skipLocked();
  if (linkedHumanId !== undefined) pick = pick.where('linked_human_id', '=', linkedHumanId);
  return (await pick.executeTakeFirst())?.id ?? null;
}

export async function markActionConsumed(tx: Tx, id: string, consumedBy: string, at: Date): Promise<void> {
  await tx.updateTable('verified_human_actions').set({ consumed_at: at, consumed_by: consumedBy }).where('id', '=', id).where('consumed_at', 'is', null).execute();
}

export async function hasOpenAction(db: Queryable, action: string): Promise<boolean> {
  const row = await db.selectFrom('verified_human_actions').select('id').where('action', '=', action).where('consumed_at', 'is', null).limit(1).executeTakeFirst();
  return Boolean(row);
}
