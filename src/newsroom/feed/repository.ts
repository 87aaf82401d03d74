import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { sortableTimestamp } from '../../platform/db/keyset.js';
import { reusableQuery } from '../../platform/db/reusable-query.js';
import type { StoryCardRow } from '../stories/presenter.js';
import { STORY_CARD_COLUMNS } from '../stories/story-filters.js';
import { correctedAtSql, listed, literal } from '../story-filters-repository.js';
import type { FeedMode } from './schemas.js';

/**
 * The sort key of each feed mode, always followed by `id DESC` as the tie-break. Numbers (the trending
 * score, a double) round-trip through the cursor as JSON numbers; timestamps as microsecond text.
 */
export const FEED_ORDERS = {
  trending: { column: 'stories.trending_score', field: 'number' },
  graduated: { column: 'stories.graduated_at', field: 'timestamp' },
  developing: { column: 'stories.published_at', field: 'timestamp' },
  recent: { column: 'stories.published_at', field: 'timestamp' },
} as const satisfies Record<FeedMode, { column: string; field: 'number' | 'timestamp' }>;

export type FeedRow = StoryCardRow & { sort_value: number | string };

export interface FeedPageInput {
  mode: FeedMode;
  room?: string | undefined;
  /** The sort key and id of the last item of the previous page. */
  after?: { sort: number | string; id: string } | undefined;
  limit: number;
}

/**
 * One page of a feed mode: listed stories strictly after `after` in the mode's order. Each shape of the query (mode,
 * with or without a room, first page or after a cursor) is built once and runs as a named statement (a feed
 * read of a cache miss happens after every write: platform/db/reusable-query.ts); the room, the cursor and the
 * limit are its parameters.
 */
export async function page(db: Db<NewsroomTables>, input: FeedPageInput): Promise<FeedRow[]> {
  const room = input.room ? [input.room] : [];
  const after = input.after ? [input.after.sort, input.after.id] : [];
  return pageStatement(input.mode, room.length > 0, after.length > 0)(db, ...room, ...after, input.limit);
}

const pageStatements = new Map<string, (db: Db<NewsroomTables>, ...values: unknown[]) => Promise<FeedRow[]>>();

function pageStatement(mode: FeedMode, byRoom: boolean, afterCursor: boolean) {
  const shape = `${mode} ${byRoom} ${afterCursor}`;
  let statement = pageStatements.get(shape);
  if (!statement) {
    // the values in page()'s order: the room, the cursor's sort key and id, the limit (each only when present)
    statement = reusableQuery((db: Db<NewsroomTables>, ...values: unknown[]) => {
      const next = values.values();
      const room = byRoom ? (next.next().value as string) : undefined;
      const after = afterCursor ? { sort: next.next().value as number | string, id: next.next().value as string } : undefined;
      return pageQuery(db, { mode, room, after, limit: next.next().value as number });
    });
    pageStatements.set(shape, statement);
  }
  return statement;
}

function pageQuery(db: Db<NewsroomTables>, input: FeedPageInput) {
  const { column, field } = FEED_ORDERS[input.mode];
  const sortValue: RawBuilder<number | string> = field === 'number' ? sql<number>`${sql.ref(column)}` : sortableTimestamp(column);
  let query = db
    .selectFrom('stories')
    .select([...STORY_CARD_COLUMNS, correctedAtSql(), sortValue.as('sort_value')])
    .where(listed)
    .where(sql.ref(column), 'is not', null);
  if (input.room !== undefined) query = query.where('stories.room', '=', input.room);
  if (input.mode === 'graduated') query = query.where('stories.publication_stage', '=', literal('GRADUATED'));
  if (input.mode === 'developing') {
    query = query
      .where('stories.publication_stage', '=', literal('PROVISIONAL'))
      .where('stories.review_status', 'in', [literal('EMERGING'), literal('CONTESTED'), literal('UNDER_REVIEW')]);
  }
  if (input.after) {
    const bound = field === 'number' ? sql`${input.after.sort}::float8` : sql`${input.after.sort}::timestamptz`;
    query = query.where(sql<boolean>`(${sql.ref(column)}, stories.id) < (${bound}, ${input.after.id})`);
  }
  return query.orderBy(sql.ref(column), 'desc').orderBy('stories.id', 'desc').limit(input.limit);
}

/** The reads of the reader site's room links and sitemap, over the same listed stories as the feeds. */
/** Rooms of listed stories, the busiest first (at most `limit`). */
export async function rooms(db: Db<NewsroomTables>, limit: number): Promise<string[]> {
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
export async function listedStoryCount(db: Db<NewsroomTables>): Promise<number> {
  const row = await db
    .selectFrom('stories')
    .select(sql<number>`count(*)::int`.as('n'))
    .where(listed)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** One page of listed stories for the sitemap, by id (a stable order: a story keeps its sitemap file). */
export async function listedStoriesById(
  db: Db<NewsroomTables>,
  offset: number,
  limit: number,
): Promise<{ id: string; lang: string; updated_at: Date }[]> {
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
export async function listedStoriesOfBot(
  db: Db<NewsroomTables>,
  botId: string,
  limit: number,
): Promise<{ id: string; title: string; lang: string }[]> {
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
