import type { ColumnType, Generated } from 'kysely';
import type { Int8, CreatedAt, UpdatedAt, Frozen } from '../platform/db/row-types.js';

/**
 * The row types of the tables the newsroom owns, for Kysely (`NewsroomDatabase`: table name → row type); the names are
 * listed in tables.ts. test/platform/schema-types.test.ts checks them against the migrated database.
 */
export interface NewsroomDatabase {
  stories: StoriesTable;
  story_versions: StoryVersionsTable;
  story_sources: StorySourcesTable;
  search_words: SearchWordsTable;
  candidates: CandidatesTable;
  safety_traces: SafetyTracesTable;
  agent_reviews: AgentReviewsTable;
  revision_proposals: RevisionProposalsTable;
  revision_votes: RevisionVotesTable;
  comments: CommentsTable;
  flags: FlagsTable;
  reward_votes: RewardVotesTable;
  consensus_snapshots: ConsensusSnapshotsTable;
  ledger_events: LedgerEventsTable;
  source_statuses: SourceStatusesTable;
  quarantine_items: QuarantineItemsTable;
  quarantine_decisions: QuarantineDecisionsTable;
  legal_holds: LegalHoldsTable;
  story_corrections: StoryCorrectionsTable;
}

export type PublicationStage = 'CANDIDATE' | 'PROVISIONAL' | 'GRADUATED';

export type ReviewStatus = 'EMERGING' | 'CLEAR' | 'CONTESTED' | 'UNDER_REVIEW' | 'RETRACTED';

export type ModerationStatus = 'PENDING_SCAN' | 'ALLOWED' | 'QUARANTINED' | 'BLOCKED';

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

export type SourceRating = 'UNRATED' | 'TRUSTED' | 'WATCH' | 'BANNED';

export interface SourceStatusesTable {
  host: string;
  status: SourceRating;
  reason: string;
  updated_by: string;
  updated_by_actor_id: string;
  updated_at: Date;
}

export type QuarantineStatus = 'OPEN' | 'KEPT' | 'RELEASED' | 'BLOCKED';

export type QuarantineDecision = 'RELEASE' | 'KEEP' | 'BLOCK';

export interface QuarantineItemsTable {
  id: string;
  seq: Generated<Int8>;
  scope_type: 'story';
  scope_id: string;
  trace_id: string;
  status: Generated<QuarantineStatus>;
  created_at: Date;
  decided_by: string | null;
  decided_by_actor_id: string | null;
  decided_at: Date | null;
  decision_reason: string | null;
}

export interface QuarantineDecisionsTable {
  id: string;
  item_id: string;
  decision: QuarantineDecision;
  reason: string;
  decided_by: string;
  decided_by_actor_id: string;
  decided_at: Date;
}

export interface LegalHoldsTable {
  id: string;
  seq: Generated<Int8>;
  story_id: string;
  status: Generated<'ACTIVE' | 'RELEASED'>;
  reason: string;
  case_reference: string | null;
  placed_by: string;
  placed_by_actor_id: string;
  placed_at: Date;
  released_by: string | null;
  released_by_actor_id: string | null;
  released_at: Date | null;
  release_reason: string | null;
}

export interface StoryCorrectionsTable {
  id: string;
  story_id: string;
  kind: 'CORRECTION' | 'RETRACTION';
  version: number;
  note: string;
  ledger_event_id: string;
  webhook_event_id: string;
  created_by: string;
  created_by_actor_id: string;
  created_at: Date;
}

/** story_sources.host: generated from the url by source_host() (never written). */
export type SourceHostColumn = ColumnType<string | null, never, never>;
