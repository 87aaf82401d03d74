import type { PayoutStatus } from '../rows.js';

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
export function initialPayoutStatus(s: PayoutStanding): InitialStatus {
  if (s.storyFrozen) return STORY_FROZEN;
  if (s.recipientFrozen) return RECIPIENT_FROZEN;
  if (s.heldForReview) return HELD;
  if (s.walletVerified) return PAYABLE;
  return NO_WALLET;
}

type InitialStatus = Readonly<{ status: PayoutStatus; reason: string | null }>;
// one object per answer: a run asks a million times
const STORY_FROZEN: InitialStatus = Object.freeze({ status: 'FROZEN', reason: 'STORY_FROZEN' });
const RECIPIENT_FROZEN: InitialStatus = Object.freeze({ status: 'FROZEN', reason: 'RECIPIENT_FROZEN' });
const HELD: InitialStatus = Object.freeze({ status: 'REVIEW', reason: 'CARTEL_CLUSTER' });
const PAYABLE: InitialStatus = Object.freeze({ status: 'PAYABLE', reason: null });
const NO_WALLET: InitialStatus = Object.freeze({ status: 'PENDING_RECIPIENT', reason: 'NO_VERIFIED_WALLET' });
