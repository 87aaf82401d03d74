import type { Queryable, Tx } from '../../platform/db/database.js';
import type { IdentityTables } from '../tables.js';
import { appError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { hasOpenAction, insertVerifiedAction, lockOpenAction, markActionConsumed } from './repository.js';

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
export async function recordVerifiedHumanAction(db: Queryable<IdentityTables>, input: VerifiedHumanActionInput): Promise<string> {
  const id = await insertVerifiedAction(db, { id: newId('vha'), ...input });
  if (!id) throw appError('NULLIFIER_REUSED');
  return id;
}

/**
 * Consumes one open verified action (oldest first) for `action`, optionally only one proven by
 * `linkedHumanId`. Returns its id, or null when none is open.
 */
export async function consumeHumanAction(
  tx: Tx<IdentityTables>,
  action: string,
  consumedBy: string,
  at: Date,
  linkedHumanId?: string,
): Promise<string | null> {
  const id = await lockOpenAction(tx, action, linkedHumanId);
  if (id) await markActionConsumed(tx, id, consumedBy, at);
  return id;
}

/** Whether an open verified action exists (the consensus snapshot reports it without consuming), in the caller's database or transaction. */
export function hasOpenHumanAction(q: Queryable<IdentityTables> | Tx<IdentityTables>, action: string): Promise<boolean> {
  return hasOpenAction(q, action);
}
