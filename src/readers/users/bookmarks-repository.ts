import { sql } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import { sortableTimestamp } from '../../platform/db/keyset.js';
import { HIDDEN_MODERATION, STORY_CARD_COLUMNS } from '../../newsroom/stories/story-filters.js';
import { correctedAtSql } from '../../newsroom/story-filters-repository.js';

/** SQL of reader bookmarks (table user_bookmarks). Every query is scoped to one actor. */

/** Adds the bookmark unless it exists; answers the stored row and whether this call created it. */
export async function insertBookmark(
  tx: Tx,
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

export async function deleteBookmark(tx: Tx, actorId: string, storyId: string): Promise<{ created_at: Date } | undefined> {
  return tx
    .deleteFrom('user_bookmarks')
    .where('actor_id', '=', actorId)
    .where('story_id', '=', storyId)
    .returning('created_at')
    .executeTakeFirst();
}

/**
 * Up to `limit` bookmarks of `actorId`, newest first, strictly after `after` (index user_bookmarks_newest),
 * each with the story's card columns when the public may still see the story (nulls otherwise).
 */
export async function bookmarksAfter(db: Queryable, actorId: string, after: { at: string; storyId: string } | null, limit: number) {
  let query = db
    .selectFrom('user_bookmarks as b')
    .leftJoin('stories', (join) => join.onRef('stories.id', '=', 'b.story_id').on('stories.moderation_status', 'not in', HIDDEN_MODERATION))
    .select(['b.story_id', 'b.created_at', sortableTimestamp('b.created_at').as('sort_at'), ...STORY_CARD_COLUMNS, correctedAtSql()])
    .where('b.actor_id', '=', actorId);
  if (after) query = query.where(sql<boolean>`(b.created_at, b.story_id) < (${after.at}::timestamptz, ${after.storyId})`);
  return query.orderBy('b.created_at', 'desc').orderBy('b.story_id', 'desc').limit(limit).execute();
}

/** The stories `actorId` saved, the newest `limit` (their notifications look for corrections of them). */
export async function savedStoryIds(db: Queryable, actorId: string, limit: number): Promise<string[]> {
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
export async function allBookmarks(db: Queryable, actorId: string) {
  return db
    .selectFrom('user_bookmarks')
    .select(['story_id', 'created_at'])
    .where('actor_id', '=', actorId)
    .orderBy('created_at', 'desc')
    .orderBy('story_id', 'desc')
    .execute();
}

/** What decides whether a reader may bookmark a story: it exists, is visible and is published. */
export async function findStoryForReader(db: Queryable, storyId: string) {
  return db.selectFrom('stories').select(['id', 'moderation_status', 'publication_stage']).where('id', '=', storyId).executeTakeFirst();
}

/** Whether `actorId` bookmarked `storyId`. */
export async function hasBookmark(db: Queryable, actorId: string, storyId: string): Promise<boolean> {
  const row = await db
    .selectFrom('user_bookmarks')
    .select('story_id')
    .where('actor_id', '=', actorId)
    .where('story_id', '=', storyId)
    .executeTakeFirst();
  return row !== undefined;
}
