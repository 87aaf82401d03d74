import { sql, type Expression, type QueryResult } from 'kysely';
import type { Tx } from '../database.js';

/**
 * Runs `query` through a server-side cursor named `name` in `tx` and hands its rows to `take` a batch of
 * `batchSize` at a time, so a read of a million rows is never held as rows at once. The next batch is asked for
 * before a batch is handed over, so the database reads while the caller works. Every row is read: the transaction
 * plans its cursors for all their rows (`cursor_tuple_fraction = 1`), not for the first tenth. Nor are they
 * JIT-compiled (`jit = off`): such a read is costed far above PostgreSQL's JIT thresholds, and compiling it took
 * longer than it saved (the settlement's million work units: 3.0-3.5 s with JIT, 2.2-2.3 s without).
 */
export async function readThroughCursor<T, R>(
  tx: Tx<T>,
  name: string,
  query: Expression<R>,
  batchSize: number,
  take: (rows: R[]) => void,
): Promise<void> {
  await sql`SET LOCAL cursor_tuple_fraction = 1`.execute(tx);
  await sql`SET LOCAL jit = off`.execute(tx);
  await sql`DECLARE ${sql.id(name)} NO SCROLL CURSOR FOR ${query}`.execute(tx);
  const fetch = (): Promise<QueryResult<R>> => {
    const batch = sql<R>`FETCH ${sql.raw(String(batchSize))} FROM ${sql.id(name)}`.execute(tx);
    batch.catch(() => undefined); // awaited below; a batch pending when `take` throws must not go unhandled
    return batch;
  };
  let next: Promise<QueryResult<R>> | null = fetch();
  while (next) {
    const { rows }: QueryResult<R> = await next;
    next = rows.length === batchSize ? fetch() : null;
    take(rows);
  }
  await sql`CLOSE ${sql.id(name)}`.execute(tx);
}
