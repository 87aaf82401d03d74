import type { Tx } from '../db/database.js';
import type { PlatformTables } from '../tables.js';
import type { AuditScope } from '../rows.js';
import { newId } from '../ids.js';
import { auditHash, GENESIS_HASH } from './chain.js';
import { insertAuditEvent, lastAuditEvent, lockAuditChain } from './repository.js';

export interface AuditEntry {
  scope: AuditScope;
  /** What happened, dotted (`proposal.activated`, `request.approved`). */
  action: string;
  actor: { actorId: string; linkedHumanId?: string | undefined };
  /** What it happened to (a proposal id, a request id, `emergency`). */
  target: string;
  details: Record<string, unknown>;
  at: Date;
}

/**
 * Appends an audit event inside the caller's transaction, so the event exists exactly when the change it
 * records commits. The chain's advisory lock is held until that commit, so concurrent appends queue and
 * each links to the row committed before it (the database's insert trigger checks the link again).
 */
export async function appendAudit(tx: Tx<PlatformTables>, entry: AuditEntry): Promise<{ id: string; seq: string; hash: string }> {
  await lockAuditChain(tx);
  const last = await lastAuditEvent(tx);
  const seq = last ? (BigInt(last.seq) + 1n).toString() : '1';
  const prevHash = last?.hash ?? GENESIS_HASH;
  const id = newId('au');
  // the JSON round trip is what jsonb gives back (undefined members dropped, dates as text): hash that
  const details = JSON.parse(JSON.stringify(entry.details)) as Record<string, unknown>;
  const linkedHumanId = entry.actor.linkedHumanId ?? null;
  const hash = auditHash({
    seq,
    id,
    scope: entry.scope,
    action: entry.action,
    actorId: entry.actor.actorId,
    linkedHumanId,
    target: entry.target,
    details,
    createdAt: entry.at.toISOString(),
    prevHash,
  });
  await insertAuditEvent(tx, {
    seq,
    id,
    scope: entry.scope,
    action: entry.action,
    actor_id: entry.actor.actorId,
    linked_human_id: linkedHumanId,
    target: entry.target,
    details: JSON.stringify(details),
    created_at: entry.at,
    prev_hash: prevHash,
    hash,
  });
  return { id, seq, hash };
}
