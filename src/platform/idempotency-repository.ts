import { sql } from 'kysely';
import type { Db, Queryable } from './db/database.js';
import { countExpiredBefore, retentionByExpiry, type RetentionStep } from './db/retention.js';
import { appError } from './errors.js';
import type { PlatformTables } from './tables.js';

/** The SQL of the idempotency records (the table platform owns); the key's format and the request hash: idempotency.ts. */

const RETENTION_MS = 24 * 60 * 60 * 1000;

export type IdempotencyOutcome = { kind: 'proceed' } | { kind: 'replay'; status: number; body: unknown };

/**
 * Idempotency records live in the database, so every instance sees them. The first request reserves the
 * key (a primary-key insert, so two concurrent firsts cannot both proceed); later ones replay the stored
 * answer, or 409 when the body differs or the first is still running.
 */
export function createIdempotencyStore(db: Db<PlatformTables>, now: () => number) {
  return {
    async begin(scope: string, key: string, hash: string): Promise<IdempotencyOutcome> {
      const expiresAt = new Date(now() + RETENTION_MS);
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const inserted = await db
          .insertInto('idempotency_records')
          .values({ scope, key, request_hash: hash, expires_at: expiresAt })
          .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
          .returning('key')
          .executeTakeFirst();
        if (inserted) return { kind: 'proceed' };
        const row = await db
          .selectFrom('idempotency_records')
          .selectAll()
          .where('scope', '=', scope)
          .where('key', '=', key)
          .executeTakeFirst();
        if (!row) continue;
        if (new Date(row.expires_at).getTime() <= now()) {
          await db
            .deleteFrom('idempotency_records')
            .where('scope', '=', scope)
            .where('key', '=', key)
            .where('expires_at', '=', row.expires_at)
            .execute();
          continue;
        }
        if (row.request_hash !== hash) {
          throw appError('IDEMPOTENCY_KEY_CONFLICT');
        }
        if (row.status_code === null) {
          throw appError('IDEMPOTENCY_KEY_IN_PROGRESS', { retryAfterSeconds: 1 });
        }
        return { kind: 'replay', status: row.status_code, body: row.response };
      }
      throw appError('IDEMPOTENCY_KEY_IN_PROGRESS', { message: 'The idempotency key is busy', retryAfterSeconds: 1 });
    },
    async complete(scope: string, key: string, status: number, body: unknown): Promise<void> {
      await db
        .updateTable('idempotency_records')
        .set({ status_code: status, response: sql`${JSON.stringify(body ?? null)}::jsonb` })
        .where('scope', '=', scope)
        .where('key', '=', key)
        .execute();
    },
    async abandon(scope: string, key: string): Promise<void> {
      await db
        .deleteFrom('idempotency_records')
        .where('scope', '=', scope)
        .where('key', '=', key)
        .where('status_code', 'is', null)
        .execute();
    },
  };
}

/**
 * The records whose 24 hours are over, for the retention command: an expired record only ever gives way to the
 * next use of its key (`begin` above deletes it then), so it may go at any time. A record that a write holds
 * locked at that moment is skipped.
 */
export function expiredIdempotencyRecords(now: Date): RetentionStep<PlatformTables> {
  return retentionByExpiry({
    label: 'idempotency records past their expiry',
    table: 'idempotency_records',
    before: now,
    rows: {
      async prune(db: Queryable<PlatformTables>, before: Date, limit: number, from?: Date) {
        const rows = await db
          .deleteFrom('idempotency_records')
          .where(({ eb, refTuple, selectFrom }) =>
            eb(
              refTuple('scope', 'key'),
              'in',
              selectFrom('idempotency_records')
                .select(['scope', 'key'])
                .where('expires_at', '<', before)
                .$if(from !== undefined, (q) => q.where('expires_at', '>=', from!))
                .orderBy('expires_at')
                .limit(limit)
                .forUpdate()
                .skipLocked()
                .$asTuple('scope', 'key'),
            ),
          )
          .returning('expires_at')
          .execute();
        return rows.map((r) => r.expires_at);
      },
      countBefore: (db: Queryable<PlatformTables>, before: Date) => countExpiredBefore(db, 'idempotency_records', before),
    },
  });
}
