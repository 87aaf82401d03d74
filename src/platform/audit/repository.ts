import { sql } from 'kysely';
import type { Queryable, Tx } from '../db/database.js';
import type { AuditScope } from '../rows.js';
import type { Int8 } from '../db/row-types.js';
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

/** What a page of the audit log is narrowed to: every given filter must hold. */
export interface AuditFilter {
  /** The actor's key: its actorId or its bound linkedHumanId. */
  actor?: string | undefined;
  action?: string | undefined;
  /** created_at at or after */
  from?: Date | undefined;
  /** created_at before */
  before?: Date | undefined;
}

/**
 * Up to `limit` rows of the chain newest first (seq descending), below `beforeSeq` when given: a keyset page of
 * the log. The seq order is the chain's own, so a page never skips or repeats a row while rows are appended.
 */
export async function listAuditEvents(
  db: Queryable<PlatformTables>,
  filter: AuditFilter & { beforeSeq: Int8 | null; limit: number },
): Promise<AuditRow[]> {
  let query = db.selectFrom('audit_events').selectAll().orderBy('seq', 'desc').limit(filter.limit);
  const { actor } = filter;
  if (actor) query = query.where((eb) => eb.or([eb('actor_id', '=', actor), eb('linked_human_id', '=', actor)]));
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.from) query = query.where('created_at', '>=', filter.from);
  if (filter.before) query = query.where('created_at', '<', filter.before);
  if (filter.beforeSeq) query = query.where('seq', '<', filter.beforeSeq);
  return query.execute();
}
