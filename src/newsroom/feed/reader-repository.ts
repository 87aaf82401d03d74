import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { STORY_CARD_COLUMNS } from '../stories/story-filters.js';
import { correctedAtSql, listed } from '../story-filters-repository.js';
import type { FeedRow } from './repository.js';

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
 */
function bucketOf(actorId: string): RawBuilder<number> {
  // Uncorrelated subqueries: PostgreSQL runs each once per query (an InitPlan, or a hashed SubPlan for IN and
  // NOT IN), not once per story. The tags become one OR-ed tsquery; a tag with no searchable word adds nothing.
  const rooms = sql`(select t.topic from user_topics t where t.actor_id = ${actorId} and t.kind = 'ROOM')`;
  const tags = sql`(select string_agg('(' || q::text || ')', ' | ')::tsquery
    from (select phraseto_tsquery('simple', t.topic) as q from user_topics t where t.actor_id = ${actorId} and t.kind = 'TAG') tags
    where q::text <> '')`;
  const followed = sql<boolean>`(stories.room in ${rooms} or coalesce(stories.search_vector_simple @@ ${tags}, false))`;
  const historyKept = sql<boolean>`exists (
    select 1 from user_preferences p where p.actor_id = ${actorId} and p.preferences -> 'personalization' = 'true'::jsonb)`;
  const unread = sql<boolean>`stories.id not in (select h.story_id from reading_history h where h.actor_id = ${actorId})`;
  return sql<number>`((case when ${followed} then 2 else 0 end) + (case when ${historyKept} and ${unread} then 1 else 0 end))`;
}

/**
 * One page of the trending feed ranked for a signed reader: listed stories strictly after `after` in the
 * order (bucket, trending score, id), all descending. The bucket is per reader, so no index serves this
 * order: a page ranks every listed story of the room (or of the newsroom). Never cached (read-cache.ts).
 */
export async function readerTrendingPage(db: Db<NewsroomTables>, input: ReaderFeedInput): Promise<ReaderFeedRow[]> {
  const bucket = bucketOf(input.actorId);
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
