import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { STORY_CARD_COLUMNS } from '../stories/story-filters.js';
import { correctedAtSql, listed } from '../story-filters-repository.js';
import type { FeedRow } from './repository.js';
import type { ReaderInterests } from './service.js';

/** A row of a signed reader's trending feed: its bucket (below) comes first in the order. */
export type ReaderFeedRow = FeedRow & { bucket: number };

export interface ReaderFeedInput {
  actorId: string;
  room?: string | undefined;
  /** The bucket, trending score and id of the last item of the previous page. */
  after?: { bucket: number; sort: number; id: string } | undefined;
  limit: number;
}

/**
 * The reader's bucket of a story: 2 when it is in a followed topic (a followed ROOM is the story's room, a
 * followed TAG occurs as a phrase in its title, summary or claims), plus 1 when it is unread, which is known
 * only while the reader's preferences keep a history (personalization: true; otherwise nothing counts as
 * unread). Order: followed unread (3), followed read (2), unread (1), the rest (0), each by trending score.
 * The reader's side (topics, preferences, history) is readers' SQL, embedded through the ReaderInterests port.
 */
function bucketOf(interests: ReaderInterests, actorId: string): RawBuilder<number> {
  // Uncorrelated subqueries: PostgreSQL runs each once per query (an InitPlan, or a hashed SubPlan for IN and
  // NOT IN), not once per story.
  const followed = sql<boolean>`(stories.room in ${interests.followedRooms(actorId)} or coalesce(stories.search_vector_simple @@ ${interests.followedTags(actorId)}, false))`;
  const unread = sql<boolean>`stories.id not in ${interests.readStories(actorId)}`;
  return sql<number>`((case when ${followed} then 2 else 0 end) + (case when ${interests.historyKept(actorId)} and ${unread} then 1 else 0 end))`;
}

/**
 * One page of the trending feed ranked for a signed reader: listed stories strictly after `after` in the
 * order (bucket, trending score, id), all descending. The bucket is per reader, so no index serves this
 * order: a page ranks every listed story of the room (or of the newsroom). Never cached (read-cache.ts).
 */
export async function readerTrendingPage(
  db: Db<NewsroomTables>,
  interests: ReaderInterests,
  input: ReaderFeedInput,
): Promise<ReaderFeedRow[]> {
  const bucket = bucketOf(interests, input.actorId);
  let query = db
    .selectFrom('stories')
    .select([...STORY_CARD_COLUMNS, correctedAtSql(), sql<number>`stories.trending_score`.as('sort_value'), bucket.as('bucket')])
    .where(listed);
  if (input.room) query = query.where('stories.room', '=', input.room);
  if (input.after) {
    const { bucket: b, sort, id } = input.after;
    query = query.where(sql<boolean>`(${bucket}, stories.trending_score, stories.id) < (${b}::int, ${sort}::float8, ${id})`);
  }
  return query
    .orderBy(sql`bucket`, 'desc')
    .orderBy('stories.trending_score', 'desc')
    .orderBy('stories.id', 'desc')
    .limit(input.limit)
    .execute();
}
