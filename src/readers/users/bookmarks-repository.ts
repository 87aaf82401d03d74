import { sql } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { ReadersTables } from '../tables.js';
import { sortableTimestamp } from '../../platform/db/keyset.js';

/** SQL of reader bookmarks (table user_bookmarks). Every query is scoped to one actor. */

/** Adds the bookmark unless it exists; answers the stored row and whether this call created it. */
export async function insertBookmark(
  tx: Tx<ReadersTables>,
  row: { actor_id: string; story_id: string; created_at: Date },
): Promise<{ created_at: Date; created: boolean }> {
  const inserted = await tx
    .insertInto('user_bookmarks')
    .values(row)
    .onConflict((oc) => oc.columns(['actor_id', 'story_id']).doNothing())
    .returning('created_at')
    .executeTakeFirst();
  if (inserted) return { created_at: inserted.created_at, created: true };
  const existing = await tx
    .selectFrom('user_bookmarks')
    .select('created_at')
    .where('actor_id', '=', row.actor_id)
    .where('story_id', '=', row.story_id)
    .executeTakeFirstOrThrow();
  return { created_at: existing.created_at, created: false };
}

export async function deleteBookmark(tx: Tx<ReadersTables>, actorId: string, storyId: string): Promise<{ created_at: Date } | undefined> {
  return tx
    .deleteFrom('user_bookmarks')
    .where('actor_id', '=', actorId)
    .where('story_id', '=', storyId)
    .returning('created_at')
    .executeTakeFirst();
}

/**
 * Up to `limit` bookmarks of `actorId`, newest first, strictly after `after` (index user_bookmarks_newest); the
 * stories' cards come from the newsroom in one more statement (BookmarkStories), for the page's ids at once.
 */
export async function bookmarksAfter(
  db: Queryable<ReadersTables>,
  actorId: string,
  after: { at: string; storyId: string } | null,
  limit: number,
) {
  let query = db
    .selectFrom('user_bookmarks as b')
    .select(['b.story_id', 'b.created_at', sortableTimestamp('b.created_at').as('sort_at')])
    .where('b.actor_id', '=', actorId);
  if (after) query = query.where(sql<boolean>`(b.created_at, b.story_id) < (${after.at}::timestamptz, ${after.storyId})`);
  return query.orderBy('b.created_at', 'desc').orderBy('b.story_id', 'desc').limit(limit).execute();
}

/** The stories `actorId` saved, the newest `limit` (their notifications look for corrections of them). */
export async function savedStoryIds(db: Queryable<ReadersTables>, actorId: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('user_bookmarks')
    .select('story_id')
    .where('actor_id', '=', actorId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.story_id);
}

/** Every bookmark of `actorId`, newest first (the export). */
export async function allBookmarks(db: Queryable<ReadersTables>, actorId: string) {
  return db
    .selectFrom('user_bookmarks')
    .select(['story_id', 'created_at'])
    .where('actor_id', '=', actorId)
    .orderBy('created_at', 'desc')
    .orderBy('story_id', 'desc')
    .execute();
}

/** Whether `actorId` bookmarked `storyId`. */
export async function hasBookmark(db: Queryable<ReadersTables>, actorId: string, storyId: string): Promise<boolean> {
  const row = await db
    .selectFrom('user_bookmarks')
    .select('story_id')
    .where('actor_id', '=', actorId)
    .where('story_id', '=', storyId)
    .executeTakeFirst();
  return row !== undefined;
}
