import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { conflict } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';

export interface VerifiedHumanActionInput {
  action: string;
  linkedHumanId: string;
  provider: string;
  nullifierHash: string;
  at: Date;
}

/**
 * Records a human action proven through World ID or a secondary provider. The triple (provider, action,
 * nullifier_hash) is unique in the database: the same proof twice is 409 NULLIFIER_REUSED.
 */
export async function recordVerifiedHumanAction(db: Db, input: VerifiedHumanActionInput): Promise<string> {
  const id = newId('vha');
  const row = await db
    .insertInto('verified_human_actions')
    .values({ id, action: input.action, linked_human_id: input.linkedHumanId, provider: input.provider, nullifier_hash: input.nullifierHash, created_at: input.at })
    .onConflict((oc) => oc.columns(['provider', 'action', 'nullifier_hash']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) throw conflict('NULLIFIER_REUSED', 'This proof was already used for this action');
  return row.id;
}

/**
 * Consumes one open verified action (oldest first) for `action`, optionally only one proven by
 * `linkedHumanId`. Returns its id, or null when none is open. Row-locked with SKIP LOCKED so concurrent
 * operations never consume the same action twice.
 */
export async function consumeHumanAction(db: Db, action: string, consumedBy: string, at: Date, linkedHumanId?: string): Promise<string | null> {
  let pick = db
    .selectFrom('verified_human_actions')
    .select('id')
    .where('action', '=', action)
    .where('consumed_at', 'is', null)
    .orderBy('created_at')
    .limit(1)
    .forUpdate()
    .skipLocked();
  if (linkedHumanId !== undefined) pick = pick.where('linked_human_id', '=', linkedHumanId);
  const row = await pick.executeTakeFirst();
  if (!row) return null;
  await db.updateTable('verified_human_actions').set({ consumed_at: at, consumed_by: consumedBy }).where('id', '=', row.id).where(sql<boolean>`consumed_at is null`).execute();
  return row.id;
}

/** Whether an open verified action exists (the consensus snapshot reports it without consuming). */
export async function hasOpenHumanAction(db: Db, action: string): Promise<boolean> {
  const row = await db.selectFrom('verified_human_actions').select('id').where('action', '=', action).where('consumed_at', 'is', null).limit(1).executeTakeFirst();
  return Boolean(row);
}
