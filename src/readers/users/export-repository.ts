import type { Queryable } from '../../platform/db/database.js';
import type { ReadersTables } from '../tables.js';

/**
 * SQL of the data export: what the service holds about one reader. The readers' own sections read their
 * repositories; what the other contexts hold comes through `ExportSources` (export-sections.ts), in the same snapshot.
 */

/** Runs `fn` in one read-only REPEATABLE READ transaction: every section of an export sees the same moment. */
export async function inSnapshot<T>(db: Queryable<ReadersTables>, fn: (db: Queryable<ReadersTables>) => Promise<T>): Promise<T> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute((tx) => fn(tx));
}

export async function preferencesOf(db: Queryable<ReadersTables>, actorId: string) {
  return db.selectFrom('user_preferences').select(['preferences', 'updated_at']).where('actor_id', '=', actorId).executeTakeFirst();
}
