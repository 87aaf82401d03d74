import { sql, type AliasedRawBuilder, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { StoryState } from './rows.js';
import type { NewsroomTables } from './tables.js';
import { HIDDEN_MODERATION, statePairs } from './stories/story-filters.js';

/**
 * The visibility rules of stories/story-state.ts as SQL conditions over `stories`, shared by every listing
 * repository of the newsroom (feed, search, ledger, rankings, home) so that a list and a detail read never disagree.
 * A context-level repository: the newsroom's modules import it, no other context does.
 */
type StoriesEb = ExpressionBuilder<NewsroomTables, 'stories'>;

/**
 * When a content admin last corrected or retracted the story (null when never): the card's `correctedAt`. A
 * subquery per card row on the index story_corrections_story; listings add it to the rows they answer, after
 * their LIMIT, so it costs one index probe per card shown.
 */
export function correctedAtSql(storyId: 'stories.id' | 'r.id' = 'stories.id'): AliasedRawBuilder<Date | null, 'corrected_at'> {
  return sql<Date | null>`(select max(c.created_at) from story_corrections c where c.story_id = ${sql.ref(storyId)})`.as('corrected_at');
}

/**
 * The constants of these conditions are written into the SQL as literals, not sent as parameters: a statement that
 * runs by name (platform/db/prepared-statements.ts) may get PostgreSQL's generic plan, which can use a partial
 * index only when the index's predicate is implied by literals of the statement itself.
 */
export const literal = <V extends string>(value: V) => sql.lit<V>(value);

/** Not hidden by moderation (candidates awaiting their scan included). */
export function publiclyVisible(eb: StoriesEb): Expression<SqlBool> {
  return eb('stories.moderation_status', 'not in', HIDDEN_MODERATION.map(literal));
}

/**
 * Listed in feeds and modules: visible, published and not retracted. The literals `publication_stage <>
 * 'CANDIDATE'` and `review_status <> 'RETRACTED'` match the partial indexes' predicates, so the planner
 * can use them, also in a generic plan.
 */
export function listed(eb: StoriesEb): Expression<SqlBool> {
  return eb.and([
    publiclyVisible(eb),
    eb('stories.publication_stage', '<>', literal('CANDIDATE')),
    eb('stories.review_status', '<>', literal('RETRACTED')),
    eb('stories.published_at', 'is not', null),
  ]);
}

/** The derived story state as a condition on the stored columns. */
export function inState(eb: StoriesEb, state: StoryState): Expression<SqlBool> {
  return eb.or(
    statePairs(state).map(([stage, review]) =>
      eb.and([eb('stories.publication_stage', '=', stage), eb('stories.review_status', '=', review)]),
    ),
  );
}

/** isRewardWindowActive() as SQL over the stories row `alias` (false while either end is unset). */
export function rewardWindowActiveSql(alias: 'stories' | 's', now: Date): RawBuilder<boolean> {
  return sql<boolean>`coalesce(${sql.ref(`${alias}.published_at`)} <= ${now} and ${now} < ${sql.ref(`${alias}.reward_window_ends_at`)}, false)`;
}
