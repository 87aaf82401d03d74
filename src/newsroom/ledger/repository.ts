import { sql, type Compilable } from 'kysely';
import type { Db, Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { reusablePageQuery } from '../../platform/db/reusable-query.js';
import type { LedgerEntry } from './record.js';
import type { Int8 } from '../../platform/db/row-types.js';
import type { LedgerBucket, LedgerType, StoryState } from '../rows.js';
import { HIDDEN_MODERATION } from '../stories/story-filters.js';
import { literal, rewardWindowActiveSql } from '../story-filters-repository.js';

export interface LedgerRow {
  seq: Int8;
  id: string;
  story_id: string;
  title: string;
  type: LedgerType;
  created_at: Date;
  story_state: StoryState;
  editorial_state: string;
  promotion_state: string;
  ledger_bucket: LedgerBucket;
  reward_window_active: boolean;
}

/**
 * Ledger pages, newest first, keyset on seq. Every shape of the query is a bounded index scan whatever the
 * depth: all buckets walk the primary key backwards; a subset of buckets runs one backwards scan of
 * ledger_events_bucket (bucket, seq DESC) per bucket (LATERAL, at most `limit` rows each) and merges them.
 * Events of stories hidden by moderation are left out, like the stories themselves.
 *
 * Each of the four shapes (every bucket or some, first page or after a cursor) is built once and runs as a named
 * statement (platform/db/reusable-query.ts); the buckets, the cursor, the limit and the time are its parameters.
 */
export async function page(
  db: Db<NewsroomTables>,
  buckets: readonly LedgerBucket[] | null,
  beforeSeq: string | null,
  limit: number,
  now: Date,
): Promise<LedgerRow[]> {
  return buckets === null ? allBuckets(db, beforeSeq, limit, now) : someBuckets(db, beforeSeq, [...buckets], limit, now);
}

const hidden = HIDDEN_MODERATION.map(literal);

const allBuckets = reusablePageQuery((db: Db<NewsroomTables>, beforeSeq: string | null, limit: number, now: Date) => {
  let query = db
    .selectFrom('ledger_events as le')
    .innerJoin('stories as s', 's.id', 'le.story_id')
    .select([
      'le.seq',
      'le.id',
      'le.story_id',
      'le.title',
      'le.type',
      'le.created_at',
      'le.story_state',
      'le.editorial_state',
      'le.promotion_state',
      'le.ledger_bucket',
      rewardWindowActiveSql('s', now).as('reward_window_active'),
    ])
    .where('s.moderation_status', 'not in', hidden)
    .orderBy('le.seq', 'desc')
    .limit(limit);
  if (beforeSeq !== null) query = query.where('le.seq', '<', beforeSeq);
  return query;
});

const someBuckets = reusablePageQuery(
  (db: Db<NewsroomTables>, beforeSeq: string | null, buckets: string[], limit: number, now: Date): Compilable<LedgerRow> => {
    const before = beforeSeq !== null ? sql`and le.seq < ${beforeSeq}` : sql``;
    const query = sql<LedgerRow>`
    select e.* from unnest(${buckets}::text[]) as b(bucket)
    cross join lateral (
      select le.seq, le.id, le.story_id, le.title, le.type, le.created_at, le.story_state, le.editorial_state,
             le.promotion_state, le.ledger_bucket, ${rewardWindowActiveSql('s', now)} as reward_window_active
      from ledger_events le join stories s on s.id = le.story_id
      where le.ledger_bucket = b.bucket ${before}
        and s.moderation_status not in (${sql.join(hidden)})
      order by le.seq desc
      limit ${limit}
    ) e
    order by e.seq desc
    limit ${limit}`;
    return { compile: () => query.compile(db) };
  },
);

/** Appends a ledger event row (through recordLedgerEvent, inside the transaction that made the change). */
export async function insertLedgerEvent(tx: Tx<NewsroomTables>, entry: LedgerEntry & { id: string }): Promise<void> {
  await tx
    .insertInto('ledger_events')
    .values({
      id: entry.id,
      story_id: entry.storyId,
      type: entry.type,
      title: entry.title,
      story_state: entry.storyState,
      editorial_state: entry.editorialState,
      promotion_state: entry.promotionState,
      ledger_bucket: entry.bucket,
      reason: entry.reason ?? null,
      created_at: entry.at,
    })
    .execute();
}
