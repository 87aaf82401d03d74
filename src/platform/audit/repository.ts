import { sql } from 'kysely';
import type { Queryable, Tx } from '../db/database.js';
import type { AuditScope, Int8 } from '../db/schema.js';
import type { PlatformTables } from '../tables.js';

/** SQL of the audit log (table audit_events, migrations/0001_platform.sql). */

/** The advisory lock that serializes appends; the table's insert trigger takes the same one. */
const AUDIT_LOCK_KEY = 7_346_221_002;

/** Takes the chain's lock until the transaction ends: appends of concurrent transactions queue behind it. */
export async function lockAuditChain(tx: Tx<PlatformTables>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${sql.lit(AUDIT_LOCK_KEY)})`.execute(tx);
}

/** The last row of the chain (read under the lock: every earlier append has committed). */
export async function lastAuditEvent(tx: Tx<PlatformTables>): Promise<{ seq: Int8; hash: string } | null> {
  return (await tx.selectFrom('audit_events').select(['seq', 'hash']).orderBy('seq', 'desc').limit(1).executeTakeFirst()) ?? null;
}

export interface AuditRow {
  seq: Int8;
  id: string;
  scope: AuditScope;
  action: string;
  actor_id: string;
  linked_human_id: string | null;
  target: string;
  details: unknown;
  created_at: Date;
  prev_hash: string;
  hash: string;
}

export async function insertAuditEvent(tx: Tx<PlatformTables>, row: Omit<AuditRow, 'details'> & { details: string }): Promise<void> {
  await tx.insertInto('audit_events').values(row).execute();
}

/** Up to `limit` rows after `afterSeq`, in chain order. */
export async function auditEventsAfter(db: Queryable<PlatformTables>, afterSeq: Int8, limit: number): Promise<AuditRow[]> {
  return db.selectFrom('audit_events').selectAll().where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
}
