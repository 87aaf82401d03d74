import type { ColumnType, Generated } from 'kysely';
import type { Int8 } from '../platform/db/row-types.js';

/**
 * The row types of the tables the rewards owns, for Kysely (`RewardsDatabase`: table name → row type); the names are
 * listed in tables.ts. test/platform/schema-types.test.ts checks them against the migrated database.
 */
export interface RewardsDatabase {
  rewards_policy_versions: RewardsPolicyVersionsTable;
  reward_recipients: RewardRecipientsTable;
  reward_wallet_challenges: RewardWalletChallengesTable;
  paid_action_usage: PaidActionUsageTable;
  reward_story_freezes: RewardStoryFreezesTable;
  settlements: SettlementsTable;
  settled_stories: SettledStoriesTable;
  payouts: PayoutsTable;
  payout_holders: PayoutHoldersTable;
  review_cases: ReviewCasesTable;
  review_case_events: ReviewCaseEventsTable;
  claim_batches: ClaimBatchesTable;
  claim_batch_leaves: ClaimBatchLeavesTable;
  claim_batch_payouts: ClaimBatchPayoutsTable;
  claim_batch_evidence: ClaimBatchEvidenceTable;
  claim_receipts: ClaimReceiptsTable;
  bot_owner_challenges: BotOwnerChallengesTable;
  bot_owners: BotOwnersTable;
  bot_payout_owners: BotPayoutOwnersView;
}

/** migrations/0006_rewards.sql: single-use ownership challenges. */
export interface BotOwnerChallengesTable {
  id: string;
  bot_id: string;
  linked_human_id: string;
  actor_id: string;
  wallet_address: string;
  wallet_chain_id: string;
  nonce: string;
  message: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** migrations/0006_rewards.sql: the ownerships claims established (ended_at null: the current one). */
export interface BotOwnersTable {
  id: string;
  bot_id: string;
  linked_human_id: string;
  actor_id: string;
  wallet_address: string;
  wallet_chain_id: string;
  challenge_id: string;
  consent_key_version: number;
  claimed_at: Date;
  ended_at: Date | null;
  ended_reason: 'UNLINKED' | 'REPLACED' | null;
  ended_by: string | null;
}

/** migrations/0006_rewards.sql: whose a bot's payouts are (a view: read only). */
export interface BotPayoutOwnersView {
  bot_id: ColumnType<string, never, never>;
  linked_human_id: ColumnType<string | null, never, never>;
  owner_id: ColumnType<string | null, never, never>;
}

/** migrations/0006_rewards.sql. */
export type PolicyStatus = 'ACTIVE' | 'PAUSED' | 'DISABLED';

export type PayoutRole = 'WRITER' | 'FACT_CHECK' | 'RISK' | 'SOURCE_DIVERSITY';

export type PayoutStatus = 'PAYABLE' | 'PENDING_RECIPIENT' | 'FROZEN' | 'REVIEW';

export type ReviewCaseStatus = 'OPEN' | 'IN_REVIEW' | 'APPEALED' | 'ESCALATED' | 'RESOLVED' | 'DISMISSED';

export type ReviewTargetType = 'RECIPIENT' | 'STORY' | 'BATCH' | 'PAYOUT';

/** A money column: numeric(78,0), a decimal string, read with BigInt(). */
type Money = ColumnType<string, string | bigint, string | bigint>;

export interface RewardsPolicyVersionsTable {
  version: number;
  status: PolicyStatus;
  escrow_ppm: number;
  writer_ppm: number;
  fact_check_ppm: number;
  risk_ppm: number;
  source_diversity_ppm: number;
  reason: string | null;
  created_by: string;
  created_at: Date;
}

export interface RewardRecipientsTable {
  id: string;
  linked_human_id: string;
  actor_id: string;
  terms_version: string;
  terms_accepted_at: Date;
  wallet_address: string | null;
  wallet_chain_id: number | null;
  wallet_verified_at: Date | null;
  frozen_at: Date | null;
  frozen_reason: string | null;
  frozen_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface RewardWalletChallengesTable {
  id: string;
  recipient_id: string;
  address: string;
  chain_id: number;
  nonce: string;
  message: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export interface PaidActionUsageTable {
  subject: string;
  day: ColumnType<string, string, string>;
  used: number;
}

export interface RewardStoryFreezesTable {
  story_id: string;
  reason: string;
  frozen_by: string;
  frozen_at: Date;
}

export interface SettlementsTable {
  id: string;
  seq: Generated<Int8>;
  policy_version: number;
  pool_base: Money;
  escrow_base: Money;
  paid_base: Money;
  token_decimals: number;
  windows_closed_before: Date;
  story_count: number;
  contribution_count: number;
  payout_count: number;
  /** The block of payouts.seq the run reserved, one value per contribution (null without contributions). */
  payout_seq_first: ColumnType<string | null, string | bigint | null | undefined, never>;
  payout_seq_last: ColumnType<string | null, string | bigint | null | undefined, never>;
  role_totals: ColumnType<unknown, string, never>;
  /** The published inputs, gzip of the packed form (published-inputs.ts), written last in the run's transaction (completeSettlement); required once committed. */
  inputs_gzip: ColumnType<Uint8Array | null, Uint8Array | undefined, Uint8Array>;
  created_by: string;
  created_at: Date;
}

export interface SettledStoriesTable {
  story_id: string;
  settlement_id: string;
  /** The part of its run's block of payouts.seq that holds the story's payouts; null without contributions. */
  payout_seq_first: ColumnType<string | null, string | bigint | null | undefined, never>;
  payout_seq_last: ColumnType<string | null, string | bigint | null | undefined, never>;
}

export interface PayoutsTable {
  id: string;
  seq: Generated<Int8>;
  settlement_id: string;
  story_id: string;
  role: PayoutRole;
  beneficiary_kind: 'BOT' | 'HUMAN';
  beneficiary_id: string;
  bot_id: string | null;
  linked_human_id: string | null;
  recipient_id: string | null;
  weight: Money;
  amount_base: Money;
  status: PayoutStatus;
  status_reason: string | null;
  /** Its linked human changed after its run: found by linked human through an index, not payout_holders. */
  reassigned: Generated<boolean>;
  created_at: Date;
  updated_at: Date;
}

/** migrations/0006_rewards.sql: the seqs of one run's payouts of one bot or linked human. */
export interface PayoutHoldersTable {
  holder_kind: 'BOT' | 'HUMAN';
  holder_id: string;
  settlement_id: string;
  seqs: Int8[];
}

export interface ReviewCasesTable {
  id: string;
  seq: Generated<Int8>;
  target_type: ReviewTargetType;
  target_id: string;
  status: ReviewCaseStatus;
  reason: string;
  assigned_to_actor_id: string | null;
  resolution: string | null;
  opened_by: string;
  created_at: Date;
  due_at: Date;
  updated_at: Date;
  closed_at: Date | null;
}

export interface ReviewCaseEventsTable {
  id: string;
  case_id: string;
  action: string;
  from_status: string | null;
  to_status: string;
  actor: string;
  note: string | null;
  created_at: Date;
}

/** migrations/0006_rewards.sql. */
export interface ClaimBatchesTable {
  id: string;
  seq: Generated<Int8>;
  chain_batch_id: string;
  merkle_root: string;
  distributor_address: string | null;
  total_base: Money;
  token_decimals: number;
  leaf_count: number;
  payout_count: number;
  claim_deadline: Date;
  status: 'ACTIVE' | 'FROZEN';
  frozen_at: Date | null;
  frozen_reason: string | null;
  frozen_by: string | null;
  freeze_tx_hash: string | null;
  finalized_by: string;
  created_at: Date;
  updated_at: Date;
}

export interface ClaimBatchLeavesTable {
  batch_id: string;
  leaf_index: number;
  wallet_address: string;
  amount_base: Money;
  /** bytea: the sibling hashes from the leaf up, 32 bytes each, one after the other */
  proof: Uint8Array;
}

export interface ClaimBatchPayoutsTable {
  payout_id: string;
  batch_id: string;
  leaf_index: number;
  recipient_id: string;
}

export interface ClaimReceiptsTable {
  batch_id: string;
  leaf_index: number;
  tx_hash: string;
  block_number: Money;
  confirmations: number;
  submitted_by: string;
  created_at: Date;
}

export interface ClaimBatchEvidenceTable {
  tx_hash: string;
  batch_id: string;
  kind: 'FREEZE' | 'UNFREEZE';
  block_number: Money;
  created_at: Date;
}
