import type { ModerationStatus, PublicationStage, ReviewStatus, StoryState } from '../rows.js';
import { storyState } from './story-state.js';

/**
 * The visibility rules of story-state.ts as lists: the moderation states and the (stage, review) pairs that the
 * SQL conditions of newsroom/story-filters-repository.ts are written from, and the columns of a story card.
 */

/** Moderation states hidden from every public read (isPubliclyVisible() is false for exactly these). */
export const HIDDEN_MODERATION: readonly ModerationStatus[] = ['QUARANTINED', 'BLOCKED'];

export const PUBLICATION_STAGES: readonly PublicationStage[] = ['CANDIDATE', 'PROVISIONAL', 'GRADUATED'];
export const REVIEW_STATUSES: readonly ReviewStatus[] = ['EMERGING', 'CLEAR', 'CONTESTED', 'UNDER_REVIEW', 'RETRACTED'];

/** Columns every story card needs. */
export const STORY_CARD_COLUMNS = [
  'stories.id',
  'stories.title',
  'stories.summary',
  'stories.room',
  'stories.lang',
  'stories.publication_stage',
  'stories.review_status',
  'stories.published_at',
  'stories.attestation_count',
  'stories.objection_count',
  'stories.comment_count',
  'stories.flag_count',
  'stories.reward_vote_count',
] as const;

/** Every (stage, review status) pair whose derived story state is `state`, computed from storyState(). */
export function statePairs(state: StoryState): [PublicationStage, ReviewStatus][] {
  return PUBLICATION_STAGES.flatMap((stage) =>
    REVIEW_STATUSES.filter((review) => storyState(stage, review) === state).map(
      (review) => [stage, review] as [PublicationStage, ReviewStatus],
    ),
  );
}
