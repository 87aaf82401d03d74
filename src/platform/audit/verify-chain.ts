import type { Queryable } from '../db/database.js';
import type { PlatformTables } from '../tables.js';
import { auditHash, GENESIS_HASH } from './chain.js';
import { auditEventsAfter, type AuditRow } from './repository.js';

/** A stored row's fields as its hash covers them (and as the audit log presents them, with the hash). */
export function hashedFields(row: AuditRow) {
  return {
    seq: row.seq,
    id: row.id,
    scope: row.scope,
    action: row.action,
    actorId: row.actor_id,
    linkedHumanId: row.linked_human_id,
    target: row.target,
    details: row.details,
    createdAt: row.created_at.toISOString(),
    prevHash: row.prev_hash,
  };
}

export type ChainVerdict =
  | { ok: true; events: number; headHash: string }
  | {
      ok: false;
      /** rows verified before the broken one */
      events: number;
      /** the first row whose link or contents do not verify */
      broken: { seq: string; id: string; reason: string };
    };

/**
 * Walks the audit chain in order and names the first broken link: a row whose seq does not follow the row
 * before (a row was removed), whose prev_hash is not the hash of the row before (a row before it was
 * changed and re-hashed, or rows were reordered), or whose own hash does not match its contents (the row
 * itself was changed).
 */
export async function verifyAuditChain(db: Queryable<PlatformTables>, batchSize = 500): Promise<ChainVerdict> {
  let prevHash = GENESIS_HASH;
  let expectedSeq = 1n;
  let after = '0';
  let events = 0;
  for (;;) {
    const rows = await auditEventsAfter(db, after, batchSize);
    for (const row of rows) {
      const broken = (reason: string): ChainVerdict => ({ ok: false, events, broken: { seq: row.seq, id: row.id, reason } });
      if (BigInt(row.seq) !== expectedSeq) return broken(`seq ${row.seq} follows seq ${expectedSeq - 1n}: row ${expectedSeq} is missing`);
      if (row.prev_hash !== prevHash)
        return broken(`prev_hash is not the hash of row ${expectedSeq - 1n}: that row or this link was changed`);
      const recomputed = auditHash(hashedFields(row));
      if (recomputed !== row.hash) return broken('hash does not match the row: its contents were changed');
      prevHash = row.hash;
      expectedSeq += 1n;
      events += 1;
    }
    if (rows.length < batchSize) return { ok: true, events, headHash: prevHash };
    after = rows[rows.length - 1]!.seq;
  }
}
