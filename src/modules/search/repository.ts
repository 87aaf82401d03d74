import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { sortableTimestamp } from '../../platform/db/keyset.js';
import type { DB, PublicationStage, ReviewStatus, StoryState } from '../../platform/db/schema.js';
import type { Lang } from '../../platform/i18n/index.js';
import type { StoryCardRow } from '../stories/presenter.js';
import { inState, publiclyVisible, STORY_CARD_COLUMNS } from '../stories/story-filters.js';

export interface SearchFilters {
  room?: string | undefined;
  state?: StoryState | undefined;
  publicationStage?: PublicationStage | undefined;
  reviewStatus?: ReviewStatus | undefined;
}

export type RankedRow = StoryCardRow & { rank: number };
export type RecentRow = StoryCardRow & { sort_value: string };

/**
 * Visible stories matching the filters. Candidates appear only when publicationStage=CANDIDATE is asked for
 * explicitly; retracted stories stay findable (their labels say so).
 */
function matching(eb: ExpressionBuilder<DB, 'stories'>, f: SearchFilters): Expression<SqlBool> {
  const conditions = [publiclyVisible(eb)];
  if (f.publicationStage) conditions.push(eb('stories.publication_stage', '=', f.publicationStage));
  else conditions.push(eb('stories.publication_stage', '<>', 'CANDIDATE'));
  if (f.state) conditions.push(inState(eb, f.state));
  if (f.reviewStatus) conditions.push(eb('stories.review_status', '=', f.reviewStatus));
  if (f.room) conditions.push(eb('stories.room', '=', f.room));
  return eb.and(conditions);
}

/** The column "recent" order sorts on: submission time for candidates, else publication time. */
export const recentColumn = (f: SearchFilters) => (f.publicationStage === 'CANDIDATE' ? 'stories.created_at' : 'stories.published_at');

export function createSearchRepository(db: Db) {
  return {
    /**
     * Full-text matches ranked by ts_rank_cd, best first, then id. A story matches when the query parsed
     * with the language config of `lang` matches its stemmed vector (built with the story's own language),
     * or when the query parsed with 'simple' matches its unstemmed vector: the first gives stemming
     * ("elections" finds "election"), the second finds exact words across languages. The rank adds both.
     */
    async ranked(q: string, lang: Lang, filters: SearchFilters, after: { rank: number; id: string } | undefined, limit: number): Promise<RankedRow[]> {
      const stemmed = sql`websearch_to_tsquery(lang_regconfig(${lang}), ${q})`;
      const simple = sql`websearch_to_tsquery('simple'::regconfig, ${q})`;
      const inner = db
        .selectFrom('stories')
        .select([...STORY_CARD_COLUMNS, sql<number>`(ts_rank_cd(stories.search_vector, ${stemmed}) + ts_rank_cd(stories.search_vector_simple, ${simple}))::real`.as('rank')])
        .where((eb) => matching(eb, filters))
        .where(sql<boolean>`(stories.search_vector @@ ${stemmed} or stories.search_vector_simple @@ ${simple})`);
      let query = db.selectFrom(inner.as('s')).selectAll();
      if (after) query = query.where(sql<boolean>`(s.rank < ${after.rank}::real or (s.rank = ${after.rank}::real and s.id > ${after.id}))`);
      return query.orderBy('s.rank', 'desc').orderBy('s.id', 'asc').limit(limit).execute();
    },

    /** Without a query: newest first (publication time, or submission time for candidates), then id. */
    async recent(filters: SearchFilters, after: { sort: string; id: string } | undefined, limit: number): Promise<RecentRow[]> {
      const column = recentColumn(filters);
      let query = db
        .selectFrom('stories')
        .select([...STORY_CARD_COLUMNS, sortableTimestamp(column).as('sort_value')])
        .where((eb) => matching(eb, filters))
        .where(sql.ref(column), 'is not', null);
      if (after) query = query.where(sql<boolean>`(${sql.ref(column)}, stories.id) < (${after.sort}::timestamptz, ${after.id})`);
      return query.orderBy(sql.ref(column), 'desc').orderBy('stories.id', 'desc').limit(limit).execute();
    },
  };
}

export type SearchRepository = ReturnType<typeof createSearchRepository>;
