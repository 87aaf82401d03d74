import type { Queryable } from '../../platform/db/database.js';
import type { DeliveryTables } from '../tables.js';
import { attemptsOf, countFailingDeliveries, deliveryCounts, deliveryLog } from './repository.js';

/**
 * The webhook delivery log as the newsroom console reads it (the same rows `npm run webhooks:deliveries` prints
 * for operators): the counts by state, then deliveries newest first, each with its attempts. The webhooks
 * module's public face for readers outside it; the console has no API route for it.
 */

/** A delivery's state: pending (never tried), retrying (tried, due again), delivered, dead (given up). */
export const DELIVERY_STATES = ['pending', 'retrying', 'delivered', 'dead'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export interface DeliveryLogQuery {
  state?: DeliveryState;
  /** One webhook event's deliveries (a correction's `webhookEventId`). */
  eventId?: string;
  /** Keyed paging: deliveries older than this one (its `seq`). */
  before?: string;
  limit: number;
}

export interface DeliveryAttempt {
  attempt: number;
  startedAt: string;
  /** The receiver's HTTP status, or null when no answer came (timeout, refused connection). */
  statusCode: number | null;
  error: string | null;
  outcome: 'DELIVERED' | 'RETRY' | 'DEAD';
}

export interface DeliveryLogEntry {
  id: string;
  seq: string;
  eventId: string;
  type: string;
  storyId: string;
  endpoint: string;
  state: DeliveryState;
  createdAt: string;
  /** When it is tried next (pending and retrying only). */
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  deadAt: string | null;
  lastError: string | null;
  attempts: DeliveryAttempt[];
}

export interface DeliveryLog {
  counts: Record<DeliveryState, number>;
  deliveries: DeliveryLogEntry[];
  /** The `before` of the next (older) page, or null on the last page. */
  older: string | null;
}

const FILTERS: Record<DeliveryState, { status: 'PENDING' | 'DELIVERED' | 'DEAD'; tried?: boolean }> = {
  pending: { status: 'PENDING', tried: false },
  retrying: { status: 'PENDING', tried: true },
  delivered: { status: 'DELIVERED' },
  dead: { status: 'DEAD' },
};

const stateOf = (status: string, attempts: number): DeliveryState =>
  status === 'DELIVERED' ? 'delivered' : status === 'DEAD' ? 'dead' : attempts > 0 ? 'retrying' : 'pending';

export async function readDeliveryLog(db: Queryable<DeliveryTables>, query: DeliveryLogQuery): Promise<DeliveryLog> {
  const rows = await deliveryLog(db, {
    ...(query.state ? FILTERS[query.state] : {}),
    ...(query.eventId ? { eventId: query.eventId } : {}),
    ...(query.before ? { beforeSeq: query.before } : {}),
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const attempts = await attemptsOf(
    db,
    page.map((r) => r.id),
  );
  const counts = await deliveryCounts(db);
  return {
    counts: { pending: counts.pending, retrying: counts.failed, delivered: counts.delivered, dead: counts.dead },
    deliveries: page.map((r) => ({
      id: r.id,
      seq: String(r.seq),
      eventId: r.event_id,
      type: r.type,
      storyId: r.story_id,
      endpoint: r.endpoint,
      state: stateOf(r.status, r.attempts),
      createdAt: r.created_at.toISOString(),
      nextAttemptAt: r.status === 'PENDING' ? r.next_attempt_at.toISOString() : null,
      deliveredAt: r.delivered_at?.toISOString() ?? null,
      deadAt: r.dead_at?.toISOString() ?? null,
      lastError: r.last_error,
      attempts: attempts
        .filter((a) => a.delivery_id === r.id)
        .map((a) => ({
          attempt: a.attempt,
          startedAt: a.started_at.toISOString(),
          statusCode: a.status_code,
          error: a.error,
          outcome: a.outcome,
        })),
    })),
    older: rows.length > query.limit ? String(page[page.length - 1]!.seq) : null,
  };
}

/** How many deliveries are failing (retrying or dead): what the console's home counts for a content admin. */
export async function failingDeliveries(db: Queryable<DeliveryTables>): Promise<number> {
  return countFailingDeliveries(db);
}
