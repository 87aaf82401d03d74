import type { Queryable, Tx } from '../../platform/db/database.js';
import type { PayoutRole } from '../rows.js';
import type { RewardsTables } from '../tables.js';

/**
 * What a settlement divides, as the newsroom's rows give it: the stories whose reward window has closed and that no
 * settlement has covered, their reward-vote weight, and the units of work of each role (docs/rewards.md "Who is paid
 * for what"). The SQL lives with the stories (newsroom/settlement-contributions-repository.ts); the settlement reads
 * it through this port, in its own transaction or, for a preview, on the database.
 */
export interface SettlementContributions {
  eligibleStories(q: Queryable<RewardsTables>, now: Date): Promise<EligibleStory[]>;
  /**
   * The work units (a preview, outside a transaction), handed to a visitor once they are ready; with `inParts`, in
   * statements the pool's connections run at once, each over a part of the stories.
   */
  workUnits(db: Queryable<RewardsTables>, now: Date, inParts: boolean): Promise<(owners: BotOwners, visit: WorkUnitsVisitor) => void>;
  /** The same work units through a cursor of the run's transaction, a batch at a time. */
  streamWorkUnits(tx: Tx<RewardsTables>, now: Date, owners: BotOwners, visit: WorkUnitsVisitor): Promise<void>;
}

export interface EligibleStory {
  id: string;
  review_status: string;
  graduated_at: Date | null;
  reward_window_ends_at: Date;
  /** Σ UP reward-vote weights − Σ DOWN weights (tier weights), floored at 0. */
  vote_weight: string;
}

/**
 * Receives the work units of one (story, role, beneficiary), one row at a time: fields, not an object, since a run
 * reads a million of them. `owner` is the person who owns the beneficiary: a bot's owner (bot_payout_owners: the
 * person who claimed it, else the linked human of its AgentBook verification), a flagger's linked human (or null).
 * `units` is a positive integer as decimal text. The role is one of four constant strings, and a bot's id and owner
 * are the same two strings at each of its contributions (read once with the bots' owners), so a caller that keeps
 * a million contributions keeps each bot's texts once; a flagger's texts and the units are new strings each time.
 */
export type WorkUnitsVisitor = (
  storyId: string,
  role: PayoutRole,
  beneficiaryKind: 'BOT' | 'HUMAN',
  beneficiaryId: string,
  owner: string | null,
  units: string,
) => void;

/** A bot's id and its owner now (bot_payout_owners, null when it has none). */
export interface BotOwner {
  botId: string;
  owner: string | null;
}

/** Each bot's owner now, by bot id: read once per settlement, a row per bot. */
export type BotOwners = ReadonlyMap<string, BotOwner>;
