import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { listed } from '../../newsroom/stories/story-filters.js';

/** The one read only the reader site needs: the rooms that have listed stories, for the feed's room links. */
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
