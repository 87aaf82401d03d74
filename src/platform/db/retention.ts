import { sql } from 'kysely';
import type { Queryable, Tx } from './database.js';

/** Rows per table: what a step removed, or would remove. */
export type RowCounts = Record<string, number>;

/** What one batch of a step removed, and whether the step is done (it found fewer rows than it was allowed). */
export interface RetentionBatch {
  removed: RowCounts;
  done: boolean;
}

/**
 * One kind of row the retention command removes, offered by
 * the module that owns the table and built for one run (it keeps its place in the table between batches, so
 * that no batch scans again what an earlier one removed). The command runs each batch in a transaction of its
 * own: a batch locks only the rows it removes, and skips rows the service holds locked at that moment.
 */
export interface RetentionStep<T> {
  /** What goes, in the operator's words (the command prints it). */
  readonly label: string;
  /** The tables it removes rows from, in the order it removes them (dependent rows first). */
  readonly tables: readonly string[];
  /** What a run would remove now, per table (the dry run). */
  count(db: Queryable<T>): Promise<RowCounts>;
  /** Removes at most `limit` rows of the step's last table (and the rows of the others that depend on them). */
  removeBatch(tx: Tx<T>, limit: number): Promise<RetentionBatch>;
}

/** A table's rows that end at `expires_at`: its owner's SQL, for `retentionByExpiry`. */
export interface ExpiringRows<T> {
  /** Deletes at most `limit` rows that ended before `before`, oldest first from `from` on; answers their expiries. */
  prune(db: Queryable<T>, before: Date, limit: number, from?: Date): Promise<Date[]>;
  countBefore(db: Queryable<T>, before: Date): Promise<number>;
}

/**
 * A step over a table whose rows end at `expires_at` (indexed): each batch takes the oldest rows that ended
 * before `before`, starting at the expiry where the last batch stopped, so the index leads straight past what
 * earlier batches removed instead of over it again.
 */
export function retentionByExpiry<T>(step: { label: string; table: string; before: Date; rows: ExpiringRows<T> }): RetentionStep<T> {
  let from: Date | undefined;
  return {
    label: step.label,
    tables: [step.table],
    count: async (db) => ({ [step.table]: await step.rows.countBefore(db, step.before) }),
    async removeBatch(tx, limit) {
      const expiries = await step.rows.prune(tx, step.before, limit, from);
      for (const expiry of expiries) if (!from || expiry > from) from = expiry;
      return { removed: { [step.table]: expiries.length }, done: expiries.length < limit };
    },
  };
}

/** The tables whose rows end at `expires_at` (indexed). */
export type ExpiringTable = 'idempotency_records' | 'site_sessions' | 'login_challenges';

/** How many rows of `table` ended before `before`. */
export async function countExpiredBefore<T>(db: Queryable<T>, table: ExpiringTable, before: Date): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where expires_at < ${before}`.execute(db);
  return rows[0]?.n ?? 0;
}

/**
 * The expiring rows of a table keyed by `id`: `prune` deletes up to `limit` rows that ended before `before`,
 * oldest first (from `from` on), skipping a row the service holds locked, and answers their expiries.
 */
export function expiringRowsById<T>(table: Exclude<ExpiringTable, 'idempotency_records'>): ExpiringRows<T> {
  const t = sql.table(table);
  return {
    async prune(db, before, limit, from) {
      const { rows } = await sql<{ expires_at: Date }>`
        delete from ${t} where id in (
          select id from ${t}
          where expires_at < ${before}${from === undefined ? sql`` : sql` and expires_at >= ${from}`}
          order by expires_at limit ${limit}
          for update skip locked)
        returning expires_at`.execute(db);
      return rows.map((r) => r.expires_at);
    },
    countBefore: (db, before) => countExpiredBefore(db, table, before),
  };
}
