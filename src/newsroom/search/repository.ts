import { sql, type Expression, type RawBuilder, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { sortableTimestamp } from '../../platform/db/keyset.js';
import type { PublicationStage, ReviewStatus, StoryState } from '../rows.js';
import type { Lang } from '../../platform/i18n/index.js';
import type { StoryCardRow } from '../stories/presenter.js';
import type { CjkQuery } from './cjk-query.js';
import { prefixTerm } from './forgiving-query.js';
import { boundedNegations } from './negations.js';
import { STORY_CARD_COLUMNS } from '../stories/story-filters.js';
import { correctedAtSql, inState, publiclyVisible } from '../story-filters-repository.js';

export interface SearchFilters {
  room?: string | undefined;
  state?: StoryState | undefined;
  publicationStage?: PublicationStage | undefined;
  reviewStatus?: ReviewStatus | undefined;
}

export type RankedRow = StoryCardRow & { rank: number };
export type RecentRow = StoryCardRow & { sort_value: string };

/**
 * How many matches a relevance search ranks: the newest RANK_WINDOW matching stories (by the "recent" column),
 * so that a query whose words occur in tens of thousands of stories costs the same as a rare one. A page
 * beyond the window is empty; narrow the query or the filters to reach older stories.
 */
export const RANK_WINDOW = 100;

/**
 * The oldest story of a relevance window, as (recent column text, id). Later pages rank every match at or after
 * it, so the window does not slide while the reader pages (stories published meanwhile join it).
 */
export interface WindowBound {
  sort: string;
  id: string;
}

/**
 * Visible stories matching the filters. Candidates appear only when publicationStage=CANDIDATE is asked for
 * explicitly; retracted stories stay findable (their labels say so).
 */
function matching(eb: ExpressionBuilder<NewsroomTables, 'stories'>, f: SearchFilters): Expression<SqlBool> {
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

/**
 * How many of the newest stories a bigram search reads before it asks the bigram index for every match instead
 * (see bigramCandidates; why: docs/adr/0037-search-in-every-language.md).
 */
export const SLICE_ROWS = 5_000;

/** The stories a relevance window is drawn from, newest first: `test` is the text test, `k` the window's size. */
function newestMatches(
  db: Db<NewsroomTables>,
  filters: SearchFilters,
  test: Expression<SqlBool>,
  bound: WindowBound | undefined,
  k: number,
) {
  const column = recentColumn(filters);
  return db
    .selectFrom('stories')
    .where((eb) => matching(eb, filters))
    .where(test)
    .where(sql.ref(column), 'is not', null)
    .$if(bound !== undefined, (qb) => qb.where(atOrAfter(column, bound!)))
    .orderBy(sql.ref(column), 'desc')
    .orderBy('stories.id', 'desc')
    .limit(k);
}

/** At or after a window's bound in the recent order. */
const atOrAfter = (column: string, bound: WindowBound) =>
  sql<SqlBool>`(${sql.ref(column)}, stories.id) >= (${bound.sort}::timestamptz, ${bound.id})`;

/** What the ranking reads of each candidate. */
const candidateColumns = (bigrams: boolean, column: string) =>
  [
    ...STORY_CARD_COLUMNS,
    'stories.search_vector',
    'stories.search_vector_simple',
    bigrams ? 'stories.search_vector_cjk' : sql<null>`null::tsvector`.as('search_vector_cjk'),
    sortableTimestamp(column).as('window_sort'),
  ] as const;

/**
 * The candidates of a bigram query: the same stories as newestMatches(test) (the newest `k` matches), found
 * without the bigram index when they are recent. PostgreSQL estimates an AND of bigrams as if they were
 * independent, far rarer than they are (a word of 3 characters in 4% of the stories is estimated in 0.2%),
 * and so reads the matches through the bigram index: every match of the table, to keep the newest `k`. That
 * costs in proportion to the table. Instead the statement first reads the slice: the newest `sliceRows` stories
 * of the recent index (its partial predicate, the room, and the window's bound on later pages: no other
 * filter, so that the slice never reads more than `sliceRows` stories), each tested (filters and text) in
 * that order until `k` match. When `k` match, they are the answer: the slice is a prefix of the recent order
 * over a set that holds every match, so a match outside the slice is older than every story in it, older
 * than the k-th match found; every match newer than that one is in the slice and was found. When fewer
 * match and the slice is all there is (fewer than `sliceRows` stories, as on a later page whose window is
 * short), they are every match, the answer again. Only otherwise (fewer than `k` matches in a full slice:
 * a rare word, which the index reads cheaply) the statement runs newestMatches itself. Reading the slice
 * stops at its `k`-th match, so a common word costs about k / its share of stories tests, at any table size.
 * The row at place `sliceRows` is kept beside the matches to tell whether the slice was full; `sliced` says
 * whether the slice answered.
 */
function bigramCandidates(
  db: Db<NewsroomTables>,
  filters: SearchFilters,
  test: Expression<SqlBool>,
  bound: WindowBound | undefined,
  k: number,
  sliceRows: number,
) {
  const column = recentColumn(filters);
  const slice = db
    .selectFrom('stories')
    .select((eb) => [
      'stories.id',
      sql.ref(column).as('at'),
      eb.and([matching(eb, filters), test]).as('hit'),
      sql<string>`row_number() over (order by ${sql.ref(column)} desc, stories.id desc)`.as('place'),
    ])
    // the predicate of the recent index (stories_recent, stories_room_recent or stories_candidates_created)
    .where('stories.publication_stage', filters.publicationStage === 'CANDIDATE' ? '=' : '<>', 'CANDIDATE')
    .$if(filters.room !== undefined, (qb) => qb.where('stories.room', '=', filters.room!))
    .where(sql.ref(column), 'is not', null)
    .$if(bound !== undefined, (qb) => qb.where(atOrAfter(column, bound!)))
    .orderBy(sql.ref(column), 'desc')
    .orderBy('stories.id', 'desc')
    .limit(sliceRows);
  const all = newestMatches(db, filters, test, bound, k).select('stories.id');
  const chosen = db.selectFrom('stories').select(candidateColumns(true, column));
  return sql`
    with slice as (
      select s.id, s.hit, s.place from (${slice}) s
      where s.hit or s.place = ${sliceRows}
      order by s.at desc, s.id desc
      limit ${k}
    ),
    verdict as (
      select count(*) filter (where slice.hit) < ${k} and coalesce(bool_or(slice.place = ${sliceRows}), false) as fallback
      from slice
    ),
    chosen as (
      select slice.id from slice where slice.hit and not (select fallback from verdict)
      union all
      select f.id from (${all}) f where (select fallback from verdict)
    )
    ${chosen.select(sql<boolean>`not (select fallback from verdict)`.as('sliced')).where(sql<SqlBool>`stories.id in (select chosen.id from chosen)`)}`;
}

/**
 * One page of full-text matches ranked by ts_rank_cd, best first, then id, within the rank window (see
 * RANK_WINDOW): on the first page the newest RANK_WINDOW matches, on later pages every match from the
 * window's bound on. A story matches when the query parsed with the language config of `lang` matches its
 * stemmed vector (built with the story's own language), or when the query parsed with 'simple' matches its
 * unstemmed headline vector: the first gives stemming ("elections" finds "election"), the second finds
 * exact title, summary and claim words across languages. The rank adds both.
 *
 * A query with Chinese or Japanese characters (`cjk`, split by the service) matches a story whose bigram
 * vector holds the bigrams of every run of the query, and whose word vectors hold the rest of the query (if
 * any): the bigram vector finds whatever the word vectors would find of those characters, so they are not
 * tested for them (a story in English has an empty bigram vector, cheap to test). The rank adds that vector's
 * too. A query without such characters runs exactly as before.
 *
 * The window is one index scan of the recent order testing each story (or a bitmap scan of the text
 * indexes when the words are rare: the planner decides from the words' statistics), so a page costs at
 * most RANK_WINDOW vector tests and ranks at any match count. A bigram query draws its window from the
 * newest `sliceRows` stories first (bigramCandidates); `sliced` says whether they answered (undefined for
 * a word query).
 */
export async function ranked(
  db: Db<NewsroomTables>,
  q: string,
  cjk: CjkQuery,
  lang: Lang,
  filters: SearchFilters,
  page: { after?: { rank: number; id: string } | undefined; window?: WindowBound | undefined },
  limit: number,
  sliceRows = SLICE_ROWS,
): Promise<{ rows: RankedRow[]; window: WindowBound | undefined; sliced?: boolean }> {
  const stemmed = textQuery(sql`lang_regconfig(${lang})`, q);
  const simple = textQuery(sql`'simple'::regconfig`, q);
  const words = (text: string) =>
    sql<boolean>`(stories.search_vector @@ ${textQuery(sql`lang_regconfig(${lang})`, text)} or stories.search_vector_simple @@ ${textQuery(sql`'simple'::regconfig`, text)})`;
  const bigrams = cjk.cjk === undefined ? undefined : sql`to_tsquery('simple'::regconfig, ${cjk.cjk})`;
  const column = recentColumn(filters);
  const test = bigrams ? sql<SqlBool>`(stories.search_vector_cjk @@ ${bigrams} and ${cjk.rest ? words(cjk.rest) : sql`true`})` : words(q);
  // Later pages: stories published since the first page join the window; the cap only bounds a very old cursor.
  const k = page.window ? RANK_WINDOW * 4 : RANK_WINDOW;
  const candidates = bigrams
    ? bigramCandidates(db, filters, test, page.window, k, sliceRows)
    : newestMatches(db, filters, test, page.window, k).select(candidateColumns(false, column));
  const cardColumns = sql.join(STORY_CARD_COLUMNS.map((c) => sql.ref(c.replace('stories.', 'w.'))));
  const after = page.after
    ? sql`(r.rank < ${page.after.rank}::real or (r.rank = ${page.after.rank}::real and r.id > ${page.after.id}))`
    : sql`true`;
  const { rows } = await sql<RankedRow & { bound_sort: string; bound_id: string; sliced?: boolean }>`
    select r.*, ${correctedAtSql('r.id')} from (
      select ${cardColumns},
        (ts_rank_cd(w.search_vector, ${stemmed}) + ts_rank_cd(w.search_vector_simple, ${simple})${bigrams ? sql` + ts_rank_cd(w.search_vector_cjk, ${bigrams})` : sql``})::real as rank,
        first_value(w.window_sort) over oldest as bound_sort,
        first_value(w.id) over oldest as bound_id${bigrams ? sql`, w.sliced` : sql``}
      from (${candidates}) w
      window oldest as (order by w.window_sort, w.id)
    ) r
    where ${after}
    order by r.rank desc, r.id asc
    limit ${limit}`.execute(db);
  const first = rows[0];
  const window = page.window ?? (first ? { sort: first.bound_sort, id: first.bound_id } : undefined);
  return {
    rows: rows.map(({ bound_sort: _s, bound_id: _i, sliced: _l, ...row }) => row),
    window,
    ...(first?.sliced !== undefined ? { sliced: first.sliced } : {}),
  };
}

/**
 * The tsquery of a text in a configuration: web-search syntax, every chain of negations bounded first
 * (negations.ts), or'ed with the same query whose last word is a prefix when it is a plain word
 * (forgiving-query.ts): "city librar" finds "city library" while the exact words keep their stemming
 * ("libraries" finds "library", which its prefix alone would not).
 */
function textQuery(config: RawBuilder<unknown>, text: string): RawBuilder<unknown> {
  const exact = sql`websearch_to_tsquery(${config}, ${boundedNegations(text)})`;
  const prefix = prefixTerm(text);
  if (!prefix) return exact;
  return sql`(${exact} || (websearch_to_tsquery(${config}, ${boundedNegations(prefix.head)}) && to_tsquery(${config}, ${prefix.term})))`;
}

/**
 * For each word, whether a published title holds it, and else the nearest title word by trigram similarity
 * (pg_trgm's `%`: similarity at least 0.3, found through the trigram index), the reader's language first at
 * equal similarity; null when nothing is near.
 */
export async function nearestWords(db: Db<NewsroomTables>, words: string[], lang: Lang): Promise<Map<string, string | null>> {
  if (words.length === 0) return new Map();
  const { rows } = await sql<{ word: string; known: boolean; nearest: string | null }>`
    select t.word,
      exists (select from search_words s where s.word = t.word) as known,
      (select s.word from search_words s where s.word % t.word
        order by similarity(s.word, t.word) desc, (s.lang = ${lang}) desc, s.word limit 1) as nearest
    from unnest(${words}::text[]) as t(word)`.execute(db);
  return new Map(rows.map((row) => [row.word, row.known ? null : row.nearest]));
}

/** Without a query: newest first (publication time, or submission time for candidates), then id. */
export async function recent(
  db: Db<NewsroomTables>,
  filters: SearchFilters,
  after: { sort: string; id: string } | undefined,
  limit: number,
): Promise<RecentRow[]> {
  const column = recentColumn(filters);
  let query = db
    .selectFrom('stories')
    .select([...STORY_CARD_COLUMNS, correctedAtSql(), sortableTimestamp(column).as('sort_value')])
    .where((eb) => matching(eb, filters))
    .where(sql.ref(column), 'is not', null);
  if (after) query = query.where(sql<boolean>`(${sql.ref(column)}, stories.id) < (${after.sort}::timestamptz, ${after.id})`);
  return query.orderBy(sql.ref(column), 'desc').orderBy('stories.id', 'desc').limit(limit).execute();
}
