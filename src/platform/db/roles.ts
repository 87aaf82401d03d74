import { sql } from 'kysely';
import type { Queryable } from './database.js';

/**
 * Whether the connection's role could switch off the audit chain's triggers: a superuser (which may also set
 * session_replication_role), or the owner of audit_events or a member of it (ALTER TABLE … DISABLE TRIGGER,
 * TRUNCATE, DROP). The runtime role of migrations/0001_platform.sql is neither.
 */
export async function mayAlterSchema<T>(db: Queryable<T>): Promise<boolean> {
  const { rows } = await sql<{ may: boolean }>`
    SELECT coalesce((SELECT rolsuper FROM pg_roles WHERE rolname = current_user), false)
        OR coalesce(pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = to_regclass('audit_events')), 'USAGE'), false)
        AS may`.execute(db);
  return rows[0]?.may ?? false;
}
