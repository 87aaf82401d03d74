import type { PayoutStatus } from '../../platform/db/schema.js';

/** What decides the state a payout is created in (docs/rewards.md "Payout states"). */
export interface PayoutStanding {
  storyFrozen: boolean;
  recipientFrozen: boolean;
  /** Held for review by the cartel hook: a member of a flagged cluster of the latest cartel analysis. */
  heldForReview: boolean;
  /** The beneficiary's person has a recipient with accepted terms and a verified wallet. */
  walletVerified: boolean;
}

/**
 * Frozen beats everything: a frozen story or recipient never yields a payable payout. Held for review comes
 * next. Otherwise payable when there is a verified wallet to pay, else waiting for the recipient.
 */
export function initialPayoutStatus(s: PayoutStanding): { status: PayoutStatus; reason: string | null } {
  if (s.storyFrozen) return { status: 'FROZEN', reason: 'STORY_FROZEN' };
  if (s.recipientFrozen) return { status: 'FROZEN', reason: 'RECIPIENT_FROZEN' };
  if (s.heldForReview) return { status: 'REVIEW', reason: 'CARTEL_CLUSTER' };
  if (s.walletVerified) return { status: 'PAYABLE', reason: null };
  return { status: 'PENDING_RECIPIENT', reason: 'NO_VERIFIED_WALLET' };
}
