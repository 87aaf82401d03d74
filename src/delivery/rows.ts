import type { Generated } from 'kysely';
import type { Int8 } from '../platform/db/row-types.js';

/**
 * The row types of the tables delivery owns, for Kysely (`DeliveryDatabase`: table name → row type); the names are
 * listed in tables.ts. test/platform/schema-types.test.ts checks them against the migrated database.
 */
export interface DeliveryDatabase {
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_disabled_endpoints: WebhookDisabledEndpointsTable;
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
