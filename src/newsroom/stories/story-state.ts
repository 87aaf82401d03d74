import type { LedgerBucket, PublicationStage, ReviewStatus, StoryState } from '../rows.js';

/**
 * The public story state is derived, never stored: review trouble (UNDER_REVIEW, CONTESTED) shows first,
 * then graduation, else PROVISIONAL. A retracted story keeps the UNDER_REVIEW state (its reviewStatus says
 * RETRACTED). Candidates have no story state yet (null).
 */
export function storyState(stage: PublicationStage, review: ReviewStatus): StoryState | null {
  if (stage === 'CANDIDATE') return null;
  if (review === 'UNDER_REVIEW' || review === 'RETRACTED') return 'UNDER_REVIEW';
  if (review === 'CONTESTED') return 'CONTESTED';
  if (stage === 'GRADUATED') return 'GRADUATED';
  return 'PROVISIONAL';
}

/** The ledger bucket of a story state (agent revisions use 'agent-review' explicitly). */
export function bucketForState(state: StoryState): LedgerBucket {
  switch (state) {
    case 'GRADUATED':
      return 'graduated';
    case 'CONTESTED':
    case 'UNDER_REVIEW':
      return 'under-review';
    default:
      return 'provisional';
  }
}

/** Whether a story is open to the public (candidates awaiting a scan are; quarantined and blocked are not). */
export function isPubliclyVisible(moderation: string): boolean {
  return moderation !== 'QUARANTINED' && moderation !== 'BLOCKED';
}

/**
 * Trending score (documented in docs/newsroom.md): log10 of engagement plus publication time in units of
 * 12.5 hours. Every 12.5 h of age is worth a tenfold engagement. The score of a story changes only when
 * its engagement changes, so feed pages keyed on it stay stable while time passes.
 */
export function trendingScore(input: {
  publishedAt: Date;
  attestationWeight: number;
  objectionWeight: number;
  upVotes: number;
  downVotes: number;
  comments: number;
}): number {
  const engagement = 1 + 3 * input.attestationWeight + 2 * input.upVotes + input.comments - input.downVotes - input.objectionWeight;
  return Math.log10(Math.max(1, engagement)) + input.publishedAt.getTime() / 1000 / 45_000;
}

/** The reward window is open from publication until reward_window_ends_at (exclusive). */
export function isRewardWindowActive(publishedAt: Date | null, closesAt: Date | null, now: Date): boolean {
  return Boolean(publishedAt && closesAt && publishedAt <= now && now < closesAt);
}
