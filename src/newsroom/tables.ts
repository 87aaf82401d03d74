import type { DeliveryDatabase } from '../delivery/rows.js';
import type { NewsroomDatabase } from './rows.js';
import type { PlatformDatabase } from '../platform/rows.js';
import type { TableNames } from '../platform/db/row-types.js';

const names = [
  'stories',
  'story_versions',
  'story_sources',
  'search_words',
  'candidates',
  'safety_traces',
  'agent_reviews',
  'revision_proposals',
  'revision_votes',
  'comments',
  'flags',
  'reward_votes',
  'consensus_snapshots',
  'ledger_events',
  'source_statuses',
  'quarantine_items',
  'quarantine_decisions',
  'legal_holds',
  'story_corrections',
] as const;

/**
 * The tables the newsroom owns: the stories with their versions, sources and search words, the candidates and
 * their safety traces, the reviews and revision proposals with their votes, comments, flags, reward votes, the
 * consensus snapshots, the public ledger, and moderation's source statuses, quarantine, legal holds and
 * corrections.
 */
export const NEWSROOM_TABLES: TableNames<NewsroomDatabase, typeof names> = names;

/**
 * The newsroom's handle: its own tables, platform's (an audit entry or an idempotency record goes in the same
 * transaction as the change it records) and delivery's outbox (a correction's webhook event is written in the
 * correction's transaction, handed to `enqueueWebhook`). What the newsroom needs of another context comes
 * through ports, listed in docs/architecture.md.
 */
export interface NewsroomTables extends NewsroomDatabase, PlatformDatabase, DeliveryDatabase {}
