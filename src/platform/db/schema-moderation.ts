import type { ColumnType, Generated } from 'kysely';
import type { Int8 } from './schema.js';

/**
 * Row types of the moderation and correction tables (migrations/0003_newsroom.sql) and of the webhook outbox
 * (migrations/0007_delivery.sql).
 */

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

export type WebhookEventType = 'story.correction' | 'story.retraction';

export interface WebhookEventsTable {
  id: string;
  seq: Generated<Int8>;
  type: WebhookEventType;
  story_id: string;
  occurred_at: string;
  payload: string;
  created_at: Date;
}

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'DEAD';

export interface WebhookDeliveriesTable {
  id: string;
  seq: Generated<Int8>;
  event_id: string;
  endpoint: string;
  status: Generated<DeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: Date;
  created_at: Date;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  dead_at: Date | null;
}

export interface WebhookAttemptsTable {
  id: string;
  seq: Generated<Int8>;
  delivery_id: string;
  attempt: number;
  started_at: Date;
  status_code: number | null;
  error: string | null;
  outcome: 'DELIVERED' | 'RETRY' | 'DEAD';
  worker: string;
}

export interface WebhookDisabledEndpointsTable {
  endpoint: string;
  disabled_at: Date;
  reason: string;
}

export interface ModerationDB {
  source_statuses: SourceStatusesTable;
  quarantine_items: QuarantineItemsTable;
  quarantine_decisions: QuarantineDecisionsTable;
  legal_holds: LegalHoldsTable;
  story_corrections: StoryCorrectionsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_disabled_endpoints: WebhookDisabledEndpointsTable;
}

/** story_sources.host: generated from the url by source_host() (never written). */
export type SourceHostColumn = ColumnType<string | null, never, never>;
