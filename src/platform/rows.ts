import type { ColumnType } from 'kysely';
import type { Int8, CreatedAt, Frozen } from './db/row-types.js';

/**
 * The row types of the tables platform owns, for Kysely (`PlatformDatabase`: table name → row type); the names are
 * listed in tables.ts. test/platform/schema-types.test.ts checks them against the migrated database.
 */
export interface PlatformDatabase {
  audit_events: AuditEventsTable;
  idempotency_records: IdempotencyRecordsTable;
  schema_migrations: SchemaMigrationsTable;
}

export interface IdempotencyRecordsTable {
  scope: string;
  key: string;
  request_hash: string;
  status_code: number | null;
  response: unknown;
  created_at: CreatedAt;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

export interface SchemaMigrationsTable {
  name: string;
  applied_at: CreatedAt;
}

export type AuditScope = 'GOVERNANCE' | 'CONTROL_PLANE' | 'MODERATION' | 'REWARDS';

export interface AuditEventsTable {
  seq: Frozen<Int8>;
  id: Frozen<string>;
  scope: Frozen<AuditScope>;
  action: Frozen<string>;
  actor_id: Frozen<string>;
  linked_human_id: Frozen<string | null>;
  target: Frozen<string>;
  details: ColumnType<unknown, string, never>;
  created_at: Frozen<Date>;
  prev_hash: Frozen<string>;
  hash: Frozen<string>;
}
