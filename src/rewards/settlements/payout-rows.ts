import type { HoldsFor } from './cartel-hook.js';
import type { Contribution } from './compute.js';
import { initialPayoutStatus } from './payout-status.js';
import type { NewPayout, StoryPayoutRange } from './repository.js';

/** The id of the payout with seq `seq`, as the database's payout_id_of makes it: `po-` and the seq in decimal. */
const payoutIdOf = (seq: number): string => `po-${seq}`;

/** A contribution with what made its weight (published with the settlement). */
export interface PublishedContribution extends Contribution {
  units: string;
  storyVoteWeight: string;
  owner: string | null;
}

/** A person's recipient as far as a payout's state goes: its id, whether its wallet is verified, whether it is frozen. */
export interface RecipientStanding {
  id: string;
  wallet_verified_at: Date | null;
  frozen_at: Date | null;
}

/** What gives each payout its initial state: the recipient of its person, its story's freeze, a cartel hold. */
export interface PayoutStandings {
  recipients: ReadonlyMap<string, RecipientStanding>;
  frozenStories: ReadonlySet<string>;
  /** The cartel hook's answer: whether a beneficiary's payouts are held for review. */
  held: HoldsFor;
}

/** The recipient of a contribution's person (its bot's owner, or the flagger), if the person has one. */
export function recipientOf(c: PublishedContribution, standings: PayoutStandings): RecipientStanding | undefined {
  return c.owner ? standings.recipients.get(c.owner) : undefined;
}

/** The state a contribution's payout is created in, given its person's recipient (recipientOf). */
export function payoutState(c: PublishedContribution, recipient: RecipientStanding | undefined, standings: PayoutStandings) {
  return initialPayoutStatus({
    storyFrozen: standings.frozenStories.has(c.storyId),
    recipientFrozen: Boolean(recipient?.frozen_at),
    heldForReview: standings.held(c.beneficiaryKind, c.beneficiaryId, c.owner),
    walletVerified: Boolean(recipient?.wallet_verified_at),
  });
}

/**
 * The first seq of a run's block as a number: a run reserves one payout seq per contribution, contribution `i` has
 * `firstSeq + i` (a sequence's values stay far below 2^53).
 */
function seqBase(firstSeq: bigint, count: number): number {
  const base = Number(firstSeq);
  if (!Number.isSafeInteger(base + count)) throw new Error(`payout seq ${firstSeq} + ${count} is past 2^53`);
  return base;
}

/** Distinct amounts whose text a run keeps for the rows after (past that, each row writes its own). */
const AMOUNT_TEXTS = 4_096;

/** A contribution is paid when its share is not zero: one payout each. */
export const paidCount = (amounts: readonly bigint[]) => amounts.reduce((n, a) => (a > 0n ? n + 1 : n), 0);

/**
 * The payout rows of the non-zero amounts, in batches of up to `size` rows, each built only when asked for (a
 * run's COPY inserts one batch while the next is built). Contribution `i` gets seq `firstSeq + i`: a run reserves one
 * seq per contribution, so each story's payouts lie in the block of its contributions (storySeqRanges) and a
 * share rounded to nothing leaves its seq unused.
 *
 * The batch and its row objects are reused for the next batch: the run's COPY encodes each batch before it asks for
 * the next and keeps none of its rows (a run's million payouts are then `size` objects, not a million for the
 * garbage collector).
 */
export function* payoutBatches(
  contributions: readonly PublishedContribution[],
  amounts: readonly bigint[],
  standings: PayoutStandings,
  firstSeq: bigint,
  size: number,
): Generator<readonly Readonly<NewPayout>[]> {
  const base = seqBase(firstSeq, contributions.length);
  // the run's amounts take a few hundred values (shares of one weight class are equal): each is written once
  const amountTexts = new Map<bigint, string>();
  const batch: NewPayout[] = [];
  let filled = 0;
  for (let i = 0; i < contributions.length; i++) {
    const amount = amounts[i]!;
    if (amount === 0n) continue;
    const c = contributions[i]!;
    const recipient = recipientOf(c, standings);
    const { status, reason } = payoutState(c, recipient, standings);
    let amountText = amountTexts.get(amount);
    if (amountText === undefined) {
      amountText = amount.toString();
      if (amountTexts.size < AMOUNT_TEXTS) amountTexts.set(amount, amountText);
    }
    let row = batch[filled];
    if (row === undefined) batch.push((row = blankPayout()));
    row.seq = base + i;
    row.id = payoutIdOf(row.seq); // unique as its seq is (payouts_id_of_seq): no random part, no index of its own
    row.story_id = c.storyId;
    row.role = c.role;
    row.beneficiary_kind = c.beneficiaryKind;
    row.beneficiary_id = c.beneficiaryId;
    row.linked_human_id = c.owner;
    row.recipient_id = recipient?.id ?? null;
    row.weight = c.weight;
    row.amount_base = amountText;
    row.status = status;
    row.status_reason = reason;
    if (++filled === size) {
      yield batch;
      filled = 0;
    }
  }
  if (filled) {
    batch.length = filled;
    yield batch;
  }
}

/** A row of a batch before its first payout is written into it. */
function blankPayout(): NewPayout {
  return {
    seq: 0,
    id: '',
    story_id: '',
    role: 'WRITER',
    beneficiary_kind: 'BOT',
    beneficiary_id: '',
    linked_human_id: null,
    recipient_id: null,
    weight: '',
    amount_base: '',
    status: 'PAYABLE',
    status_reason: null,
  };
}

/**
 * Each story's block of payout seq (null bounds for a story without contributions): contribution `i` has seq
 * `firstSeq + i`, and a story's contributions are consecutive (grouped by story, in the order of `storyIds`).
 */
export function storySeqRanges(storyIds: readonly string[], contributions: readonly Contribution[], firstSeq: bigint): StoryPayoutRange[] {
  const base = seqBase(firstSeq, contributions.length);
  const bounds = new Map<string, { first: number; last: number }>();
  // a story's contributions are consecutive: one look-up per story, not per contribution
  for (let first = 0; first < contributions.length;) {
    const storyId = contributions[first]!.storyId;
    let last = first;
    while (last + 1 < contributions.length && contributions[last + 1]!.storyId === storyId) last++;
    const b = bounds.get(storyId);
    if (b) b.last = last;
    else bounds.set(storyId, { first, last });
    first = last + 1;
  }
  return storyIds.map((storyId) => {
    const b = bounds.get(storyId);
    return {
      storyId,
      first: b ? String(base + b.first) : null,
      last: b ? String(base + b.last) : null,
    };
  });
}

/** One person's payouts in one run (payout_holders): a bot's (its bot_id) or a linked human's, by seq. */
export interface PayoutHolder {
  kind: 'BOT' | 'HUMAN';
  id: string;
  /** Ascending. */
  seqs: number[];
}

/**
 * A run's payouts by bot and by linked human, recorded as the run builds them (`record` passes the batches on): a
 * payout's bot is the beneficiary of a BOT contribution, its linked human the contribution's owner.
 */
export class PayoutHolders {
  private readonly bots = new Map<string, number[]>();
  private readonly humans = new Map<string, number[]>();

  /** The batches as they are, each payout's persons recorded as it passes. */
  *record(batches: Iterable<readonly NewPayout[]>): Generator<readonly NewPayout[]> {
    for (const batch of batches) {
      for (const p of batch) {
        if (p.beneficiary_kind === 'BOT') add(this.bots, p.beneficiary_id, p.seq);
        if (p.linked_human_id !== null) add(this.humans, p.linked_human_id, p.seq);
      }
      yield batch;
    }
  }

  /** Every person recorded, with the seqs of their payouts (ascending: the batches come in seq order). */
  list(): PayoutHolder[] {
    return [
      ...[...this.bots].map(([id, seqs]) => ({ kind: 'BOT' as const, id, seqs })),
      ...[...this.humans].map(([id, seqs]) => ({ kind: 'HUMAN' as const, id, seqs })),
    ];
  }
}

function add(holders: Map<string, number[]>, id: string, seq: number): void {
  const seqs = holders.get(id);
  if (seqs) seqs.push(seq);
  else holders.set(id, [seq]);
}
