import { sql, type ExpressionBuilder } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { DeliveryStatus, WebhookEventType } from '../rows.js';
import type { DeliveryTables } from '../tables.js';

/** SQL of the webhook outbox: events, deliveries, the attempt log and disabled endpoints. */

export async function insertWebhookEvent(
  tx: Tx<DeliveryTables>,
  row: { id: string; type: WebhookEventType; storyId: string; occurredAt: string; payload: string; at: Date },
): Promise<void> {
  await tx
    .insertInto('webhook_events')
    .values({ id: row.id, type: row.type, story_id: row.storyId, occurred_at: row.occurredAt, payload: row.payload, created_at: row.at })
    .execute();
}

export async function disabledEndpoints(db: Queryable<DeliveryTables>): Promise<Set<string>> {
  const rows = await db.selectFrom('webhook_disabled_endpoints').select('endpoint').execute();
  return new Set(rows.map((r) => r.endpoint));
}

export async function insertDeliveries(
  tx: Tx<DeliveryTables>,
  rows: { id: string; eventId: string; endpoint: string; at: Date }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insertInto('webhook_deliveries')
    .values(rows.map((r) => ({ id: r.id, event_id: r.eventId, endpoint: r.endpoint, next_attempt_at: r.at, created_at: r.at })))
    .execute();
}

export interface ClaimedDelivery {
  id: string;
  eventId: string;
  endpoint: string;
  /** The attempt this claim makes (1 for the first). */
  attempt: number;
  eventCreatedAt: Date;
  occurredAt: string;
  payload: string;
}

/**
 * Claims the oldest due delivery: row-locked with FOR UPDATE SKIP LOCKED, so concurrent workers of every
 * instance each take a different row, then leased by moving next_attempt_at to `leaseUntil`. A worker that
 * dies mid-delivery leaves the row due again once the lease ends (at least once, never lost).
 */
export async function claimDueDelivery(tx: Tx<DeliveryTables>, now: Date, leaseUntil: Date): Promise<ClaimedDelivery | null> {
  const due = await tx
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id', 'endpoint', 'attempts'])
    .where('status', '=', 'PENDING')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  if (!due) return null;
  await tx
    .updateTable('webhook_deliveries')
    .set({ attempts: due.attempts + 1, next_attempt_at: leaseUntil, last_attempt_at: now })
    .where('id', '=', due.id)
    .execute();
  const event = await tx
    .selectFrom('webhook_events')
    .select(['occurred_at', 'payload', 'created_at'])
    .where('id', '=', due.event_id)
    .executeTakeFirstOrThrow();
  return {
    id: due.id,
    eventId: due.event_id,
    endpoint: due.endpoint,
    attempt: due.attempts + 1,
    eventCreatedAt: event.created_at,
    occurredAt: event.occurred_at,
    payload: event.payload,
  };
}

export interface AttemptResult {
  deliveryId: string;
  attempt: number;
  startedAt: Date;
  statusCode: number | null;
  error: string | null;
  outcome: 'DELIVERED' | 'RETRY' | 'DEAD';
  worker: string;
  /** RETRY: when the next attempt is due. */
  nextAttemptAt?: Date;
  at: Date;
}

/**
 * Records an attempt and its outcome. The delivery row changes only while it is still this attempt's
 * (same attempt count, still PENDING): a late answer after the lease was taken over changes nothing.
 */
export async function recordAttempt(tx: Tx<DeliveryTables>, id: string, result: AttemptResult): Promise<void> {
  await tx
    .insertInto('webhook_attempts')
    .values({
      id,
      delivery_id: result.deliveryId,
      attempt: result.attempt,
      started_at: result.startedAt,
      status_code: result.statusCode,
      error: result.error,
      outcome: result.outcome,
      worker: result.worker,
    })
    .execute();
  const common = { last_status_code: result.statusCode, last_error: result.error };
  const update =
    result.outcome === 'DELIVERED'
      ? { ...common, status: 'DELIVERED' as const, delivered_at: result.at }
      : result.outcome === 'DEAD'
        ? { ...common, status: 'DEAD' as const, dead_at: result.at }
        : { ...common, next_attempt_at: result.nextAttemptAt ?? result.at };
  await tx
    .updateTable('webhook_deliveries')
    .set(update)
    .where('id', '=', result.deliveryId)
    .where('attempts', '=', result.attempt)
    .where('status', '=', 'PENDING')
    .execute();
}

export async function isEndpointDisabled(db: Queryable<DeliveryTables>, endpoint: string): Promise<boolean> {
  return Boolean(await db.selectFrom('webhook_disabled_endpoints').select('endpoint').where('endpoint', '=', endpoint).executeTakeFirst());
}

export async function disableEndpoint(tx: Tx<DeliveryTables>, endpoint: string, reason: string, at: Date): Promise<void> {
  await tx
    .insertInto('webhook_disabled_endpoints')
    .values({ endpoint, reason, disabled_at: at })
    .onConflict((oc) => oc.column('endpoint').doNothing())
    .execute();
}

export async function enableEndpoint(db: Queryable<DeliveryTables>, endpoint: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook_disabled_endpoints').where('endpoint', '=', endpoint).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** How many deliveries are failing: tried and due again (PENDING with attempts), or given up (DEAD). */
export async function countFailingDeliveries(db: Queryable<DeliveryTables>): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where((eb) => eb.or([eb('status', '=', 'DEAD'), eb.and([eb('status', '=', 'PENDING'), eb('attempts', '>', 0)])]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Delivery counts for operators: pending (never tried), failed (tried, retrying), delivered, dead. */
export async function deliveryCounts(db: Queryable<DeliveryTables>): Promise<Record<'pending' | 'failed' | 'delivered' | 'dead', number>> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select([
      sql<string>`case when status = 'PENDING' and attempts = 0 then 'pending' when status = 'PENDING' then 'failed' else lower(status) end`.as(
        'state',
      ),
      sql<number>`count(*)::int`.as('n'),
    ])
    .groupBy(sql`1`)
    .execute();
  const counts = { pending: 0, failed: 0, delivered: 0, dead: 0 };
  for (const r of rows) counts[r.state as keyof typeof counts] = r.n;
  return counts;
}

/**
 * The delivery log, newest first: each delivery with its event. `tried` narrows PENDING to the ones tried and
 * retrying (true) or never tried (false); `beforeSeq` pages to older deliveries.
 */
export async function deliveryLog(
  db: Queryable<DeliveryTables>,
  filter: { status?: DeliveryStatus; tried?: boolean; eventId?: string; beforeSeq?: string; limit: number },
) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.seq',
      'd.event_id',
      'e.type',
      'e.story_id',
      'd.endpoint',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'd.created_at',
      'd.last_attempt_at',
      'd.last_status_code',
      'd.last_error',
      'd.delivered_at',
      'd.dead_at',
    ])
    .orderBy('d.seq', 'desc')
    .limit(filter.limit);
  if (filter.status) query = query.where('d.status', '=', filter.status);
  if (filter.eventId) query = query.where('d.event_id', '=', filter.eventId);
  if (filter.tried !== undefined) query = query.where('d.attempts', filter.tried ? '>' : '=', 0);
  if (filter.beforeSeq) query = query.where('d.seq', '<', filter.beforeSeq);
  return query.execute();
}

export async function attemptsOf(db: Queryable<DeliveryTables>, deliveryIds: string[]) {
  if (deliveryIds.length === 0) return [];
  return db
    .selectFrom('webhook_attempts')
    .select(['delivery_id', 'attempt', 'started_at', 'status_code', 'error', 'outcome', 'worker'])
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('seq')
    .execute();
}

/** A delivery that ended (DELIVERED or DEAD) before `before`: the retention command removes it with its attempts. */
const endedBefore = (before: Date) => (eb: ExpressionBuilder<DeliveryTables, 'webhook_deliveries'>) =>
  eb.or([
    eb.and([eb('status', '=', 'DELIVERED'), eb('delivered_at', '<', before)]),
    eb.and([eb('status', '=', 'DEAD'), eb('dead_at', '<', before)]),
  ]);

export async function countEndedDeliveries(db: Queryable<DeliveryTables>, before: Date): Promise<{ deliveries: number; attempts: number }> {
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .select(sql<number>`count(*)::int`.as('n'))
    .where(endedBefore(before))
    .executeTakeFirstOrThrow();
  const attempts = await db
    .selectFrom('webhook_attempts')
    .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
    .select(sql<number>`count(*)::int`.as('n'))
    .where(endedBefore(before))
    .executeTakeFirstOrThrow();
  return { deliveries: deliveries.n, attempts: attempts.n };
}

/** An event none of whose deliveries is left (in the caller's transaction: counting what it deleted). */
const spent = (eb: ExpressionBuilder<DeliveryTables, 'webhook_events'>) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('webhook_deliveries as d')
        .select(sql`1`.as('one'))
        .whereRef('d.event_id', '=', 'webhook_events.id'),
    ),
  );

/**
 * Removes up to `limit` deliveries that ended before `before`, in `seq` order after `afterSeq` (where the last
 * batch stopped): their attempts first (they reference the delivery), then the deliveries, then those of their
 * events created before `before` that have no delivery left (while the pages just read are still in memory:
 * looked up later, each would cost a read of the deleted deliveries). The deliveries are locked first and one
 * a worker holds is skipped (a worker holds PENDING ones only). Answers the rows removed and the last seq.
 */
export async function removeEndedDeliveries(
  tx: Tx<DeliveryTables>,
  before: Date,
  afterSeq: string,
  limit: number,
): Promise<{ deliveries: number; attempts: number; events: number; lastSeq: string | null }> {
  const doomed = await tx
    .selectFrom('webhook_deliveries')
    .select(['id', 'seq', 'event_id'])
    .where('seq', '>', afterSeq)
    .where(endedBefore(before))
    .orderBy('seq')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  if (doomed.length === 0) return { deliveries: 0, attempts: 0, events: 0, lastSeq: null };
  const ids = doomed.map((d) => d.id);
  const attempts = await tx.deleteFrom('webhook_attempts').where('delivery_id', 'in', ids).executeTakeFirst();
  const deliveries = await tx.deleteFrom('webhook_deliveries').where('id', 'in', ids).executeTakeFirst();
  const events = await tx
    .deleteFrom('webhook_events')
    .where('id', 'in', [...new Set(doomed.map((d) => d.event_id))])
    .where('created_at', '<', before)
    .where(spent)
    .executeTakeFirst();
  return {
    deliveries: Number(deliveries.numDeletedRows),
    attempts: Number(attempts.numDeletedRows),
    events: Number(events.numDeletedRows),
    lastSeq: doomed.at(-1)!.seq,
  };
}

/** Events created before `before` none of whose deliveries would remain after the deliveries' retention. */
export async function countSpentEvents(db: Queryable<DeliveryTables>, before: Date): Promise<number> {
  const row = await db
    .selectFrom('webhook_events as e')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('e.created_at', '<', before)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('webhook_deliveries')
            .select(sql`1`.as('one'))
            .whereRef('webhook_deliveries.event_id', '=', 'e.id')
            .where((d) => d.not(endedBefore(before)(d))),
        ),
      ),
    )
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * Removes up to `limit` events created before `before` none of whose deliveries remains, in `seq` order after
 * `afterSeq`; answers how many and the last seq. Deliveries are only ever written with their event, so none
 * can come after.
 */
export async function removeSpentEvents(
  tx: Tx<DeliveryTables>,
  before: Date,
  afterSeq: string,
  limit: number,
): Promise<{ events: number; lastSeq: string | null }> {
  const rows = await tx
    .deleteFrom('webhook_events')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_events as e')
        .select('e.id')
        .where('e.seq', '>', afterSeq)
        .where('e.created_at', '<', before)
        .where((w) =>
          w.not(
            w.exists(
              w
                .selectFrom('webhook_deliveries as d')
                .select(sql`1`.as('one'))
                .whereRef('d.event_id', '=', 'e.id'),
            ),
          ),
        )
        .orderBy('e.seq')
        .limit(limit),
    )
    .returning('seq')
    .execute();
  const last = rows.reduce<bigint | null>((max, r) => (max === null || BigInt(r.seq) > max ? BigInt(r.seq) : max), null);
  return { events: rows.length, lastSeq: last === null ? null : last.toString() };
}
