import type { PlatformDatabase } from './rows.js';
import type { TableNames } from './db/row-types.js';

const names = ['audit_events', 'idempotency_records', 'schema_migrations'] as const;

/**
 * The tables platform owns: the audit chain, the idempotency records and the migration ledger. Platform's
 * repositories take handles typed to these only (`Tx<PlatformTables>`). A context's wider handle is accepted
 * where this one is asked for (a `Tx<ContextTables>` holding these tables too, or the whole database), so a
 * service appends its audit entry in its own transaction without a cast.
 */
export const PLATFORM_TABLES: TableNames<PlatformDatabase, typeof names> = names;

export type PlatformTables = PlatformDatabase;
