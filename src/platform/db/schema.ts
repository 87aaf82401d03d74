import type { ColumnType, Generated } from 'kysely';
import type { ModerationDB, SourceHostColumn } from './schema-moderation.js';

/**
 * Row types of the tables in migrations/, for Kysely. test/platform/schema-types.test.ts checks them against the
 * migrated database (every table and column, nullability, defaults, the type that fits each SQL type), so a
 * migration fails `npm test` until this file declares what it changed.
 */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export interface BotsTable {
  bot_id: string;
  name: string;
  description: string | null;
  operator_contact: string | null;
  source: 'SELF_SERVE' | 'REGISTRY';
  trust_tier: Generated<'UNVERIFIED' | 'VERIFIED'>;
  linked_human_id: string | null;
  wallet_address: string | null;
  wallet_chain_id: string | null;
  /** migrations/0002_identity.sql: when the bot last passed /v1/agents/verify. */
  verified_at: Date | null;
  permissions: string[];
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface BotKeysTable {
  bot_id: string;
  version: number;
  public_key: string;
  created_at: CreatedAt;
  /** migrations/0002_identity.sql: set when the key was revoked; revoked keys never sign again. */
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface IdempotencyRecordsTable {
  scope: string;
  key: string;
  request_hash: string;
  status_code: number | null;
  response: unknown;
  created_at: CreatedAt;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

export interface HumanIdentitiesTable {
  linked_human_id: string;
  tier: 'L2' | 'L3';
  provider: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface ActorBindingsTable {
  actor_id: string;
  linked_human_id: string;
  bound_at: CreatedAt;
  /** End of the login session (NULL: a binding without a session, made by an operator). */
  expires_at: Date | null;
}

export interface LoginChallengesTable {
  id: string;
  actor_id: string;
  action: string;
  signal: string;
  signal_hash: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  linked_human_id: string | null;
}

export interface UserPreferencesTable {
  actor_id: string;
  preferences: ColumnType<Record<string, unknown>, string | undefined, string>;
  updated_at: UpdatedAt;
}

/** migrations/0005_readers.sql: a reader's bookmarks, followed topics and personalization history. */
export interface UserBookmarksTable {
  actor_id: string;
  story_id: string;
  created_at: Date;
}

export type TopicKind = 'ROOM' | 'TAG';

export interface UserTopicsTable {
  actor_id: string;
  /** The normalized form (src/readers/users/topic-name.ts), unique per reader. */
  topic: string;
  kind: TopicKind;
  label: string;
  created_at: Date;
}

export interface ReadingHistoryTable {
  actor_id: string;
  story_id: string;
  first_read_at: Date;
  last_read_at: Date;
  read_count: Generated<number>;
}

export interface SchemaMigrationsTable {
  name: string;
  applied_at: CreatedAt;
}

export interface GovernanceParametersTable {
  name: string;
  value: ColumnType<unknown, string, string>;
  default_value: ColumnType<unknown, string, string>;
  updated_by_proposal_id: string | null;
  updated_at: UpdatedAt;
}

export type PublicationStage = 'CANDIDATE' | 'PROVISIONAL' | 'GRADUATED';
export type ReviewStatus = 'EMERGING' | 'CLEAR' | 'CONTESTED' | 'UNDER_REVIEW' | 'RETRACTED';
export type ModerationStatus = 'PENDING_SCAN' | 'ALLOWED' | 'QUARANTINED' | 'BLOCKED';

/**
 * A PostgreSQL int8 as the drivers hand it over: a decimal string (both drivers are set so), never a JS number,
 * which loses precision past 2^53. Money columns are numeric(78,0), also strings, read with BigInt().
 */
export type Int8 = string;

export interface StoriesTable {
  id: string;
  seq: Generated<Int8>;
  author_bot_id: string;
  room: string;
  lang: string;
  title: string;
  summary: string;
  body: string;
  claims_text: Generated<string>;
  current_version: Generated<number>;
  current_packet_hash: string;
  publication_stage: Generated<PublicationStage>;
  review_status: Generated<ReviewStatus>;
  moderation_status: Generated<ModerationStatus>;
  attestation_count: Generated<number>;
  objection_count: Generated<number>;
  comment_count: Generated<number>;
  flag_count: Generated<number>;
  reward_vote_count: Generated<number>;
  trending_score: Generated<number>;
  created_at: CreatedAt;
  published_at: Date | null;
  graduated_at: Date | null;
  reward_window_ends_at: Date | null;
  updated_at: UpdatedAt;
  /**
   * The three search vectors are the database's: a trigger sets them from the text on insert and whenever the text
   * or the language is written (stories_search_vectors, migrations/0003_newsroom.sql); the service never writes them.
   */
  search_vector: ColumnType<string | null, never, never>;
  /** The title, summary and claims on the 'simple' configuration (unstemmed). */
  search_vector_simple: ColumnType<string | null, never, never>;
  /** cjk_bigrams: the bigrams of the Chinese and Japanese text (empty without any). */
  search_vector_cjk: ColumnType<string | null, never, never>;
}

export interface StoryVersionsTable {
  story_id: string;
  version: number;
  packet_hash: string;
  packet: ColumnType<unknown, string, string>;
  proposal_id: string | null;
  created_by: string;
  created_at: CreatedAt;
}

export interface CandidatesTable {
  hash: string;
  story_id: string;
  bot_id: string;
  verified: boolean;
  submitted_at: CreatedAt;
}

/** A word of a published story's title (migrations/0008_newsroom_search_words.sql): what "did you mean" suggests from. */
export interface SearchWordsTable {
  word: Frozen<string>;
  lang: Frozen<string>;
}

export type SourceStatus = 'UNREVIEWED' | 'VERIFIED' | 'DISPUTED' | 'UNRELIABLE' | 'RETRACTED';

export interface StorySourcesTable {
  id: string;
  story_id: string;
  url: string;
  title: string | null;
  publisher: string | null;
  status: Generated<SourceStatus>;
  active: Generated<boolean>;
  added_in_version: number;
  created_at: CreatedAt;
  /** The source's host (source_host(url)), the key of its moderation status. */
  host: SourceHostColumn;
}

export interface SafetyTracesTable {
  id: string;
  story_id: string;
  packet_hash: string;
  decision: 'ALLOW' | 'QUARANTINE' | 'BLOCK';
  categories: ColumnType<unknown, string, string>;
  rules: ColumnType<unknown, string, string>;
  scanned_at: Date;
}

export interface AgentReviewsTable {
  id: string;
  story_id: string;
  packet_hash: string;
  bot_id: string;
  verified: boolean;
  kind: 'ATTESTATION' | 'OBJECTION';
  weight: number;
  confidence: number | null;
  note: string | null;
  claim_ids: Generated<string[]>;
  evidence: ColumnType<unknown, string | undefined, string>;
  created_at: CreatedAt;
}

export interface RevisionProposalsTable {
  id: string;
  story_id: string;
  base_packet_hash: string;
  bot_id: string;
  changes: ColumnType<unknown, string, string>;
  rationale: string;
  status: Generated<'OPEN' | 'ACCEPTED' | 'REJECTED' | 'STALE'>;
  accept_votes: Generated<number>;
  reject_votes: Generated<number>;
  result_version: number | null;
  created_at: CreatedAt;
  resolved_at: Date | null;
}

export interface RevisionVotesTable {
  proposal_id: string;
  bot_id: string;
  vote: 'ACCEPT' | 'REJECT';
  created_at: CreatedAt;
}

export interface CommentsTable {
  id: string;
  seq: Generated<Int8>;
  story_id: string;
  actor_id: string;
  verified: boolean;
  linked_human_id: string | null;
  parent_id: string | null;
  body: string;
  created_at: CreatedAt;
  /** When the author last edited the text (migrations/0012_comment_edits_vote_changes.sql); null: never. */
  edited_at: Date | null;
  /** When the author deleted it (the body is then empty); null: not deleted. */
  deleted_at: Date | null;
}

export interface FlagsTable {
  id: string;
  seq: Generated<Int8>;
  story_id: string;
  actor_id: string;
  verified: boolean;
  linked_human_id: string | null;
  severity: 'LOW' | 'MEDIUM' | 'HIGH';
  claim_id: string | null;
  reason: string;
  verified_action_id: string | null;
  created_at: CreatedAt;
}

export interface RewardVotesTable {
  id: string;
  story_id: string;
  actor_id: string;
  verified: boolean;
  linked_human_id: string | null;
  vote: 'UP' | 'DOWN';
  weight: number;
  verified_action_id: string | null;
  created_at: CreatedAt;
  /** When the reader last changed the vote (migrations/0012_comment_edits_vote_changes.sql); null: as cast. */
  changed_at: Date | null;
}

export interface VerifiedHumanActionsTable {
  id: string;
  action: string;
  linked_human_id: string;
  provider: string;
  nullifier_hash: string;
  created_at: CreatedAt;
  consumed_at: Date | null;
  consumed_by: string | null;
}

export interface ConsensusSnapshotsTable {
  story_id: string;
  packet_hash: string;
  snapshot: ColumnType<unknown, string, string>;
  computed_at: Date;
}

export type LedgerType = 'CORRECTION' | 'RETRACTION' | 'CHALLENGE' | 'UPDATE';
export type StoryState = 'PROVISIONAL' | 'GRADUATED' | 'CONTESTED' | 'UNDER_REVIEW';
export type LedgerBucket = 'agent-review' | 'provisional' | 'graduated' | 'under-review';

export interface LedgerEventsTable {
  seq: Generated<Int8>;
  id: string;
  story_id: string;
  type: LedgerType;
  title: string;
  story_state: StoryState;
  editorial_state: string;
  promotion_state: string;
  ledger_bucket: LedgerBucket;
  reason: string | null;
  created_at: CreatedAt;
}

/** migrations/0004_governance.sql */
export type ProposalStatus = 'DRAFT' | 'RATIFIED' | 'ACTIVE' | 'REJECTED' | 'SUPERSEDED';

export interface GovernanceProposalsTable {
  id: string;
  seq: Generated<Int8>;
  title: string;
  rationale: string;
  changes: ColumnType<Record<string, number>, string, string>;
  status: Generated<ProposalStatus>;
  created_by: string;
  created_by_actor_id: string;
  created_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
  decision_action_id: string | null;
  activated_by: string | null;
  activated_at: Date | null;
  activation_request_id: string | null;
  superseded_by: string | null;
  superseded_at: Date | null;
  updated_at: Date;
}

export interface GovernanceEmergenciesTable {
  id: string;
  status: 'ACTIVE' | 'CLEARED';
  overlay: ColumnType<Record<string, number>, string, string>;
  signals: ColumnType<unknown, string, string>;
  activated_by: string;
  activated_at: Date;
  activation_request_id: string | null;
  cleared_by: string | null;
  cleared_at: Date | null;
  clear_reason: string | null;
  clear_request_id: string | null;
}

export type ControlPlaneAction =
  'governance.activate' | 'governance.emergency.apply' | 'governance.emergency.clear' | 'settlement.run' | 'batch.finalize';
export type ControlPlaneStatus = 'PENDING' | 'EXECUTED' | 'CONSUMED' | 'CANCELLED';

export interface ControlPlaneRequestsTable {
  id: string;
  seq: Generated<Int8>;
  action: ControlPlaneAction;
  target: string;
  payload: ColumnType<unknown, string, string>;
  payload_hash: string;
  reason: string;
  status: Generated<ControlPlaneStatus>;
  requested_by: string;
  requested_by_actor_id: string;
  approvals_required: number;
  approval_count: Generated<number>;
  created_at: Date;
  executed_at: Date | null;
  consumed_at: Date | null;
  consumed_by: string | null;
  cancelled_at: Date | null;
  cancelled_by: string | null;
  cancel_reason: string | null;
}

export interface ControlPlaneApprovalsTable {
  request_id: string;
  approver: string;
  approver_actor_id: string;
  verified_action_id: string;
  approved_at: Date;
}

export type AuditScope = 'GOVERNANCE' | 'CONTROL_PLANE' | 'MODERATION' | 'REWARDS';

/** Audit rows are written once and never updated (the database refuses it too: migrations/0001_platform.sql). */
type Frozen<T> = ColumnType<T, T, never>;

export interface AuditEventsTable {
  seq: Frozen<Int8>;
  id: Frozen<string>;
  scope: Frozen<AuditScope>;
  action: Frozen<string>;
  actor_id: Frozen<string>;
  linked_human_id: Frozen<string | null>;
  target: Frozen<string>;
  details: ColumnType<unknown, string, never>;
  created_at: Frozen<Date>;
  prev_hash: Frozen<string>;
  hash: Frozen<string>;
}

// Cartel analyses and their flagged members (migrations/0004_governance.sql).
export interface IntegrityAnalysesTable {
  id: string;
  seq: Generated<Int8>;
  method: string;
  parameters: ColumnType<Record<string, unknown>, string, string>;
  window_start: Date;
  analyzed_at: Date;
  analyzed_by: string;
  clusters: ColumnType<unknown[], string, string>;
  summary: ColumnType<Record<string, unknown>, string, string>;
  cluster_count: number;
  member_count: number;
}

export interface IntegrityFlaggedMembersTable {
  analysis_id: string;
  member_kind: 'bot' | 'actor';
  member_id: string;
  cluster_id: string;
  score: number;
}

// What admins did about a finding (migrations/0013_integrity_finding_actions.sql).
export interface IntegrityFindingActionsTable {
  id: string;
  seq: Generated<Int8>;
  analysis_id: string;
  cluster_id: string;
  action: 'DISMISSED' | 'CASE_OPENED' | 'FROZEN';
  member_kind: 'bot' | 'actor' | null;
  member_id: string | null;
  reference: string | null;
  reason: string;
  acted_by: string;
  acted_at: Date;
}

export interface DB extends ModerationDB {
  governance_parameters: GovernanceParametersTable;
  stories: StoriesTable;
  search_words: SearchWordsTable;
  story_versions: StoryVersionsTable;
  candidates: CandidatesTable;
  story_sources: StorySourcesTable;
  safety_traces: SafetyTracesTable;
  agent_reviews: AgentReviewsTable;
  revision_proposals: RevisionProposalsTable;
  revision_votes: RevisionVotesTable;
  comments: CommentsTable;
  flags: FlagsTable;
  reward_votes: RewardVotesTable;
  verified_human_actions: VerifiedHumanActionsTable;
  consensus_snapshots: ConsensusSnapshotsTable;
  ledger_events: LedgerEventsTable;
  bots: BotsTable;
  bot_keys: BotKeysTable;
  idempotency_records: IdempotencyRecordsTable;
  human_identities: HumanIdentitiesTable;
  actor_bindings: ActorBindingsTable;
  login_challenges: LoginChallengesTable;
  user_preferences: UserPreferencesTable;
  user_bookmarks: UserBookmarksTable;
  user_topics: UserTopicsTable;
  reading_history: ReadingHistoryTable;
  schema_migrations: SchemaMigrationsTable;
  governance_proposals: GovernanceProposalsTable;
  governance_emergencies: GovernanceEmergenciesTable;
  control_plane_requests: ControlPlaneRequestsTable;
  control_plane_approvals: ControlPlaneApprovalsTable;
  audit_events: AuditEventsTable;
  integrity_analyses: IntegrityAnalysesTable;
  integrity_flagged_members: IntegrityFlaggedMembersTable;
  integrity_finding_actions: IntegrityFindingActionsTable;
  // migrations/0006_rewards.sql
  rewards_policy_versions: RewardsPolicyVersionsTable;
  reward_recipients: RewardRecipientsTable;
  reward_wallet_challenges: RewardWalletChallengesTable;
  paid_action_usage: PaidActionUsageTable;
  reward_story_freezes: RewardStoryFreezesTable;
  settlements: SettlementsTable;
  settled_stories: SettledStoriesTable;
  payouts: PayoutsTable;
  review_cases: ReviewCasesTable;
  payout_holders: PayoutHoldersTable;
  review_case_events: ReviewCaseEventsTable;
  claim_batches: ClaimBatchesTable;
  claim_batch_leaves: ClaimBatchLeavesTable;
  claim_batch_payouts: ClaimBatchPayoutsTable;
  claim_receipts: ClaimReceiptsTable;
  claim_batch_evidence: ClaimBatchEvidenceTable;
  bot_owner_challenges: BotOwnerChallengesTable;
  bot_owners: BotOwnersTable;
  bot_payout_owners: BotPayoutOwnersView;
  // migrations/0005_readers.sql
  site_accounts: SiteAccountsTable;
  site_sessions: SiteSessionsTable;
  display_names: DisplayNamesTable;
  display_name_history: DisplayNameHistoryTable;
  reader_notifications: ReaderNotificationsTable;
}

/** migrations/0005_readers.sql: the reader site's account of each person it logged in. */
export interface SiteAccountsTable {
  account_id: string;
  linked_human_id: string;
  created_at: Date;
  last_login_at: Date;
}

/** migrations/0009_readers_display_names.sql: the display name of each actor that chose one. */
export interface DisplayNamesTable {
  actor_id: string;
  name: string;
  /** The comparison form (src/readers/names/policy.ts), unique. */
  name_key: string;
  chosen_at: Date;
  created_at: Date;
}

/** migrations/0009_readers_display_names.sql: names given up, for moderators. */
export interface DisplayNameHistoryTable {
  id: string;
  actor_id: string;
  name: string;
  chosen_at: Date;
  replaced_at: Date;
}

/** migrations/0010_readers_notifications.sql: when a reader last looked at their notifications, their feed's token. */
export interface ReaderNotificationsTable {
  actor_id: string;
  seen_at: Date | null;
  feed_token: string | null;
  updated_at: Date;
}

/** migrations/0005_readers.sql: the reader site's browser sessions. */
export interface SiteSessionsTable {
  id: string;
  data: ColumnType<unknown, string, string>;
  expires_at: Date;
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

/** migrations/0006_rewards.sql. Money columns are numeric(78,0): decimal strings, read with BigInt(). */
export type PolicyStatus = 'ACTIVE' | 'PAUSED' | 'DISABLED';
export type PayoutRole = 'WRITER' | 'FACT_CHECK' | 'RISK' | 'SOURCE_DIVERSITY';
export type PayoutStatus = 'PAYABLE' | 'PENDING_RECIPIENT' | 'FROZEN' | 'REVIEW';
export type ReviewCaseStatus = 'OPEN' | 'IN_REVIEW' | 'APPEALED' | 'ESCALATED' | 'RESOLVED' | 'DISMISSED';
export type ReviewTargetType = 'RECIPIENT' | 'STORY' | 'BATCH' | 'PAYOUT';
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
