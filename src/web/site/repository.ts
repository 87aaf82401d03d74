import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { listed } from '../../newsroom/stories/story-filters.js';

/** The reads only the reader site needs: the rooms that have listed stories, and the stories its sitemap names. */
/** Rooms of listed stories, the busiest first (at most `limit`). */
export async function rooms(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('stories')
    .select(['stories.room', sql<number>`count(*)::int`.as('n')])
    .where(listed)
    .groupBy('stories.room')
    .orderBy('n', 'desc')
    .orderBy('stories.room', 'asc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.room);
}

/** How many listed stories the sitemap names. */
export async function listedStoryCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('stories')
    .select(sql<number>`count(*)::int`.as('n'))
    .where(listed)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** One page of listed stories for the sitemap, by id (a stable order: a story keeps its sitemap file). */
export async function listedStoriesById(db: Db, offset: number, limit: number): Promise<{ id: string; lang: string; updated_at: Date }[]> {
  return db
    .selectFrom('stories')
    .select(['stories.id', 'stories.lang', 'stories.updated_at'])
    .where(listed)
    .orderBy('stories.id')
    .offset(offset)
    .limit(limit)
    .execute();
}

/** A bot's newest listed stories (at most `limit`): its profile page. */
export async function listedStoriesOfBot(db: Db, botId: string, limit: number): Promise<{ id: string; title: string; lang: string }[]> {
  return db
    .selectFrom('stories')
    .select(['stories.id', 'stories.title', 'stories.lang'])
    .where(listed)
    .where('stories.author_bot_id', '=', botId)
    .orderBy('stories.created_at', 'desc')
    .orderBy('stories.id', 'desc')
    .limit(limit)
    .execute();
}
