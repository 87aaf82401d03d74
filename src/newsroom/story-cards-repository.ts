import type { Queryable } from '../platform/db/database.js';
import type { NewsroomTables } from './tables.js';
import { correctedAtSql, publiclyVisible } from './story-filters-repository.js';
import { STORY_CARD_COLUMNS } from './stories/story-filters.js';

/**
 * The cards of those of `storyIds` the public may still see, with when each was last corrected: one statement
 * over the primary key for a page of ids another context listed (readers' bookmarks), in no particular order.
 */
export async function visibleStoryCards(db: Queryable<NewsroomTables>, storyIds: readonly string[]) {
  if (storyIds.length === 0) return [];
  return db
    .selectFrom('stories')
    .select([...STORY_CARD_COLUMNS, correctedAtSql()])
    .where('stories.id', 'in', storyIds)
    .where(publiclyVisible)
    .execute();
}
