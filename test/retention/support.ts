import type { Db } from '../../src/platform/db/database.js';
import type { DeliveryStatus } from '../../src/delivery/rows.js';
import { newsroomFactory } from '../helpers/newsroom-factory.js';
import type { DB } from '../../src/tables.js';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The retention command's defaults as the config gives them (WEBHOOK_RETENTION_DAYS unset). */
export const RETENTION_DAYS = 30;

/** One delivery of a seeded event: its status, and how long ago it ended (DELIVERED or DEAD) or was created. */
export interface DeliverySeed {
  status: DeliveryStatus;
  /** Hours before `now` it ended (DELIVERED, DEAD); ignored for PENDING. */
  endedHoursAgo: number;
  attempts: number;
}

export interface EventSeed {
  createdHoursAgo: number;
  deliveries: DeliverySeed[];
}

/** Seeds webhook events on one story, with their deliveries and attempts; answers the ids in seed order. */
export async function seedOutbox(db: Db<DB>, now: number, events: EventSeed[]) {
  const f = newsroomFactory(db, now);
  const story = await f.story({ authorBotId: await f.bot() });
  const ids: { event: string; deliveries: string[] }[] = [];
  for (const [e, event] of events.entries()) {
    const eventId = `whe_${e}`;
    const created = new Date(now - event.createdHoursAgo * HOUR);
    await db
      .insertInto('webhook_events')
      .values({
        id: eventId,
        type: 'story.correction',
        story_id: story.id,
        occurred_at: created.toISOString(),
        payload: '{}',
        created_at: created,
      })
      .execute();
    const deliveries: string[] = [];
    for (const [d, delivery] of event.deliveries.entries()) {
      const id = `whd_${e}_${d}`;
      const ended = new Date(now - delivery.endedHoursAgo * HOUR);
      await db
        .insertInto('webhook_deliveries')
        .values({
          id,
          event_id: eventId,
          endpoint: `https://receiver-${d}.example/hook`,
          status: delivery.status,
          attempts: delivery.attempts,
          next_attempt_at: created,
          created_at: created,
          delivered_at: delivery.status === 'DELIVERED' ? ended : null,
          dead_at: delivery.status === 'DEAD' ? ended : null,
        })
        .execute();
      for (let a = 1; a <= delivery.attempts; a++) {
        const last = a === delivery.attempts && delivery.status !== 'PENDING';
        await db
          .insertInto('webhook_attempts')
          .values({
            id: `wha_${e}_${d}_${a}`,
            delivery_id: id,
            attempt: a,
            started_at: created,
            outcome: last ? (delivery.status as 'DELIVERED' | 'DEAD') : 'RETRY',
            worker: 'seed',
          })
          .execute();
      }
      deliveries.push(id);
    }
    ids.push({ event: eventId, deliveries });
  }
  return ids;
}

/** Ids left in the three outbox tables, sorted. */
export async function outboxLeft(db: Db<DB>) {
  const ids = async (table: 'webhook_events' | 'webhook_deliveries' | 'webhook_attempts') =>
    (await db.selectFrom(table).select('id').orderBy('id').execute()).map((r) => r.id);
  return { events: await ids('webhook_events'), deliveries: await ids('webhook_deliveries'), attempts: await ids('webhook_attempts') };
}

/** Idempotency records under `scope`: `expired` past their expiry (by an hour and more), `live` still valid. */
export async function seedIdempotency(db: Db<DB>, now: number, scope: string, expired: number, live: number): Promise<void> {
  const rows = [
    ...Array.from({ length: expired }, (_, i) => ({ key: `expired-${i}`, expires: now - HOUR - i * 1_000 })),
    ...Array.from({ length: live }, (_, i) => ({ key: `live-${i}`, expires: now + HOUR + i * 1_000 })),
  ];
  if (rows.length === 0) return;
  await db
    .insertInto('idempotency_records')
    .values(
      rows.map((r) => ({
        scope,
        key: r.key,
        request_hash: 'h',
        status_code: 202,
        response: '{}',
        created_at: new Date(r.expires - DAY),
        expires_at: new Date(r.expires),
      })),
    )
    .execute();
}
