import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { retentionSteps } from '../../src/composition.js';
import { createRetentionService } from '../../src/operations/retention/service.js';
import type { Db } from '../../src/platform/db/database.js';
import { createTransactor } from '../../src/platform/db/transaction.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { DAY, HOUR, outboxLeft, RETENTION_DAYS, seedIdempotency, seedOutbox } from './support.js';
import type { DB } from '../../src/tables.js';

/**
 * The retention command's service on the service's own connection (on the test server: the runtime role, so the
 * grants are tested too): what each table's plan lets go is deleted, in batches, and the rest is kept.
 */
const config = { webhooks: { retentionDays: RETENTION_DAYS } } as Parameters<typeof retentionSteps>[1];
const CUTOFF_HOURS = RETENTION_DAYS * 24;

/** Every case of the outbox: which deliveries and events the plan lets go. */
const OUTBOX = [
  // 0: old, every delivery ended long ago (one delivered after retries, one dead): all goes
  {
    createdHoursAgo: 41 * 24,
    deliveries: [
      { status: 'DELIVERED' as const, endedHoursAgo: 40 * 24, attempts: 2 },
      { status: 'DEAD' as const, endedHoursAgo: 39 * 24, attempts: 1 },
    ],
  },
  // 1: old, one delivery ended long ago, one still PENDING (retrying for 41 days): the pending one and the event stay
  {
    createdHoursAgo: 41 * 24,
    deliveries: [
      { status: 'DELIVERED' as const, endedHoursAgo: 40 * 24, attempts: 1 },
      { status: 'PENDING' as const, endedHoursAgo: 0, attempts: 3 },
    ],
  },
  // 2: old event, delivery ended 10 days ago: inside the period, both stay
  { createdHoursAgo: 35 * 24, deliveries: [{ status: 'DELIVERED' as const, endedHoursAgo: 10 * 24, attempts: 1 }] },
  // 3: recent: stays
  { createdHoursAgo: 5 * 24, deliveries: [{ status: 'DELIVERED' as const, endedHoursAgo: 5 * 24, attempts: 1 }] },
  // 4: old event without endpoints (no delivery ever): goes
  { createdHoursAgo: 41 * 24, deliveries: [] },
  // 5: recent event without endpoints: stays
  { createdHoursAgo: 2 * 24, deliveries: [] },
  // 6: just past the period on both sides of the cutoff: ended an hour before it goes, an hour after it stays
  {
    createdHoursAgo: CUTOFF_HOURS + 2,
    deliveries: [
      { status: 'DEAD' as const, endedHoursAgo: CUTOFF_HOURS + 1, attempts: 1 },
      { status: 'DELIVERED' as const, endedHoursAgo: CUTOFF_HOURS - 1, attempts: 1 },
    ],
  },
  // 7-11: old, delivered long ago: go (more rows than a batch, so the batches walk past kept ones)
  ...Array.from({ length: 5 }, () => ({
    createdHoursAgo: 50 * 24,
    deliveries: [{ status: 'DELIVERED' as const, endedHoursAgo: 49 * 24, attempts: 1 }],
  })),
];

async function seedAll(db: Db<DB>, now: number) {
  await seedIdempotency(db, now, 'test', 7, 3);
  const outbox = await seedOutbox(db, now, OUTBOX);
  await db
    .insertInto('site_sessions')
    .values([
      { id: 'ended-1', data: '{}', expires_at: new Date(now - DAY) },
      { id: 'ended-2', data: '{}', expires_at: new Date(now - 60_000) },
      { id: 'live', data: '{}', expires_at: new Date(now + HOUR) },
    ])
    .execute();
  const challenge = (id: string, expiresAgoMs: number) => ({
    id,
    actor_id: 'reader-1',
    action: 'svc-login',
    signal: `login:${id}`,
    signal_hash: '0x00',
    created_at: new Date(now - expiresAgoMs - 5 * 60_000),
    expires_at: new Date(now - expiresAgoMs),
  });
  await db
    .insertInto('login_challenges')
    .values([challenge('wch_old', 2 * HOUR), challenge('wch_recent', 10 * 60_000), challenge('wch_live', -4 * 60_000)])
    .execute();
  return outbox;
}

async function left(db: Db<DB>) {
  const ids = async (table: 'idempotency_records' | 'site_sessions' | 'login_challenges') =>
    table === 'idempotency_records'
      ? (await db.selectFrom(table).select('key').orderBy('key').execute()).map((r) => r.key)
      : (await db.selectFrom(table).select('id').orderBy('id').execute()).map((r) => r.id);
  return {
    idempotency: await ids('idempotency_records'),
    ...(await outboxLeft(db)),
    sessions: await ids('site_sessions'),
    challenges: await ids('login_challenges'),
  };
}

describe('the retention command', () => {
  let t: TestDatabase;
  before(async () => {
    t = await createTestDatabase();
  });
  after(() => t.drop());

  test('removes only the six tables whose plan deletes rows: audit, ledger, money, reviews, comments, flags and votes are kept', () => {
    const tables = retentionSteps(new Date(), config).flatMap((s) => s.tables);
    assert.deepEqual(tables, [
      'idempotency_records',
      'webhook_attempts',
      'webhook_deliveries',
      'webhook_events',
      'site_sessions',
      'login_challenges',
    ]);
  });

  test('a dry run counts what would go and deletes nothing; the run deletes exactly that, past the period, and keeps the rest', async () => {
    const db = t.database.db;
    const now = Date.now();
    await seedAll(db, now);
    const service = createRetentionService({ transactor: createTransactor(db, []) });
    const seeded = await left(db);

    const dry = await service.run(retentionSteps(new Date(now), config), { dryRun: true, batchSize: 2, pauseMs: 0 });
    assert.deepEqual(await left(db), seeded, 'the dry run deleted nothing');
    const counted = Object.assign({}, ...dry.map((r) => r.rows)) as Record<string, number>;
    assert.deepEqual(counted, {
      idempotency_records: 7,
      webhook_attempts: 2 + 1 + 1 + 1 + 5,
      webhook_deliveries: 2 + 1 + 1 + 5,
      webhook_events: 1 + 1 + 5,
      site_sessions: 2,
      login_challenges: 1,
    });
    assert.ok(
      dry.every((r) => r.batches === 0),
      'a dry run runs no batch',
    );

    const batches: Record<string, number>[] = [];
    const run = await service.run(retentionSteps(new Date(now), config), { dryRun: false, batchSize: 2, pauseMs: 1 }, (_, removed) => {
      batches.push(removed);
    });
    assert.deepEqual(Object.assign({}, ...run.map((r) => r.rows)), counted, 'the run deleted what the dry run counted');
    assert.ok(
      batches.every((b) => Object.entries(b).every(([table, n]) => table === 'webhook_attempts' || n <= 2)),
      'no batch deleted more than the batch size (a delivery takes its attempts along)',
    );
    assert.equal(run.find((r) => r.rows.idempotency_records !== undefined)!.batches, 4, 'seven rows in batches of two: four batches');

    assert.deepEqual(await left(db), {
      idempotency: ['live-0', 'live-1', 'live-2'],
      events: ['whe_1', 'whe_2', 'whe_3', 'whe_5', 'whe_6'],
      deliveries: ['whd_1_1', 'whd_2_0', 'whd_3_0', 'whd_6_1'],
      // the pending delivery's attempts stay with it; every other kept delivery keeps its own
      attempts: ['wha_1_1_1', 'wha_1_1_2', 'wha_1_1_3', 'wha_2_0_1', 'wha_3_0_1', 'wha_6_1_1'],
      sessions: ['live'],
      // expired ten minutes ago: kept for the hour in which a verify still answers CHALLENGE_EXPIRED
      challenges: ['wch_live', 'wch_recent'],
    });

    // a second run finds nothing more
    const again = await service.run(retentionSteps(new Date(now), config), { dryRun: false, batchSize: 2, pauseMs: 0 });
    assert.ok(again.every((r) => Object.values(r.rows).every((n) => n === 0)));
  });
});
