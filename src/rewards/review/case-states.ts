import type { ReviewCaseStatus } from '../rows.js';

/**
 * The review-case state machine (docs/rewards.md "Fraud review"). Moves not listed here are refused with
 * 409 REVIEW_CASE_TRANSITION_INVALID.
 *
 *   open      → OPEN
 *   assign    OPEN | IN_REVIEW | APPEALED → IN_REVIEW; ESCALATED → ESCALATED (a new assignee)
 *   escalate  OPEN | IN_REVIEW | APPEALED → ESCALATED
 *   appeal    RESOLVED | DISMISSED → APPEALED (a decision is contested)
 *   resolve   IN_REVIEW | ESCALATED | APPEALED → RESOLVED
 *   dismiss   OPEN | IN_REVIEW | ESCALATED | APPEALED → DISMISSED
 */
export type CaseMove = 'assign' | 'escalate' | 'appeal' | 'resolve' | 'dismiss';

const MOVES: Record<CaseMove, Partial<Record<ReviewCaseStatus, ReviewCaseStatus>>> = {
  assign: { OPEN: 'IN_REVIEW', IN_REVIEW: 'IN_REVIEW', APPEALED: 'IN_REVIEW', ESCALATED: 'ESCALATED' },
  escalate: { OPEN: 'ESCALATED', IN_REVIEW: 'ESCALATED', APPEALED: 'ESCALATED' },
  appeal: { RESOLVED: 'APPEALED', DISMISSED: 'APPEALED' },
  resolve: { IN_REVIEW: 'RESOLVED', ESCALATED: 'RESOLVED', APPEALED: 'RESOLVED' },
  dismiss: { OPEN: 'DISMISSED', IN_REVIEW: 'DISMISSED', ESCALATED: 'DISMISSED', APPEALED: 'DISMISSED' },
};

/** The state `move` leads to from `from`, or null when the move is not allowed there. */
export function nextCaseStatus(from: ReviewCaseStatus, move: CaseMove): ReviewCaseStatus | null {
  return MOVES[move][from] ?? null;
}

export const isClosed = (status: ReviewCaseStatus) => status === 'RESOLVED' || status === 'DISMISSED';
