import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import type { StoryCardRow } from '../stories/presenter.js';
import { STORY_CARD_COLUMNS } from '../stories/story-filters.js';
import { correctedAtSql, listed, rewardWindowActiveSql } from '../story-filters-repository.js';

/** The module lists that are not feed modes: under review, and open reward windows. */
const openWindow = (now: Date) => rewardWindowActiveSql('stories', now);

/** Listed stories whose state is CONTESTED or UNDER_REVIEW (retracted ones are not listed), newest first. */
export async function underReview(db: Db<NewsroomTables>, limit: number): Promise<StoryCardRow[]> {
  return db
    .selectFrom('stories')
    .select([...STORY_CARD_COLUMNS, correctedAtSql()])
    .where(listed)
    .where('stories.review_status', 'in', ['CONTESTED', 'UNDER_REVIEW'])
    .orderBy('stories.published_at', 'desc')
    .orderBy('stories.id', 'desc')
    .limit(limit)
    .execute();
}

/** Listed stories whose reward window is open at `now`, closing soonest first. */
export async function openRewardWindows(
  db: Db<NewsroomTables>,
  now: Date,
  limit: number,
): Promise<(StoryCardRow & { reward_window_ends_at: Date | null })[]> {
  return db
    .selectFrom('stories')
    .select([...STORY_CARD_COLUMNS, correctedAtSql(), 'stories.reward_window_ends_at'])
    .where(listed)
    .where(openWindow(now))
    .orderBy('stories.reward_window_ends_at', 'asc')
    .orderBy('stories.id', 'asc')
    .limit(limit)
    .execute();
}

export async function openRewardWindowCount(db: Db<NewsroomTables>, now: Date): Promise<number> {
  const row = await db
    .selectFrom('stories')
    .select(sql<number>`count(*)::int`.as('n'))
    .where(listed)
    .where(openWindow(now))
    .executeTakeFirstOrThrow();
  return row.n;
}
