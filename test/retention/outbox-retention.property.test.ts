import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { webhookRetention } from '../../src/delivery/webhooks/retention.js';
import { createRetentionService } from '../../src/operations/retention/service.js';
import { createTransactor } from '../../src/platform/db/transaction.js';
import { createTestDatabase } from '../helpers/app.js';
import { fuzzRuns } from '../helpers/fuzz.js';
import { DAY, outboxLeft, RETENTION_DAYS, seedOutbox, type EventSeed } from './support.js';

/**
 * For any outbox and any batch size: a delivery goes exactly when it ended (DELIVERED or DEAD) before the cutoff,
 * its attempts exactly with it, and an event exactly when it was created before the cutoff and none of its
 * deliveries is left. Ages cluster around the cutoff (whole hours, so some fall on it: those stay).
 */
const CUTOFF_HOURS = RETENTION_DAYS * 24;
const age = fc.oneof(fc.integer({ min: 0, max: 60 * 24 }), fc.integer({ min: CUTOFF_HOURS - 3, max: CUTOFF_HOURS + 3 }));

const outbox: fc.Arbitrary<EventSeed[]> = fc.array(
  fc
    .tuple(
      age,
      fc.array(fc.record({ status: fc.constantFrom('PENDING', 'DELIVERED', 'DEAD'), age, attempts: fc.nat(3) }), { maxLength: 3 }),
    )
    .map(([createdHoursAgo, deliveries]) => ({
      createdHoursAgo,
      // a delivery ends after its event was created
      deliveries: deliveries.map((d) => ({ status: d.status, endedHoursAgo: Math.min(d.age, createdHoursAgo), attempts: d.attempts })),
    })),
  { maxLength: 8 },
);

test('the outbox keeps exactly the deliveries inside the period or pending, their attempts, and the events they hold', async () => {
  const t = await createTestDatabase();
  try {
    const db = t.database.db;
    const service = createRetentionService({ transactor: createTransactor(db, []) });
    await fc.assert(
      fc.asyncProperty(outbox, fc.integer({ min: 1, max: 4 }), async (events, batchSize) => {
        await db.deleteFrom('webhook_attempts').execute();
        await db.deleteFrom('webhook_deliveries').execute();
        await db.deleteFrom('webhook_events').execute();
        const now = Date.now();
        const ids = await seedOutbox(db, now, events);

        const expected = { events: [] as string[], deliveries: [] as string[], attempts: [] as string[] };
        for (const [e, event] of events.entries()) {
          let held = false;
          for (const [d, delivery] of event.deliveries.entries()) {
            if (delivery.status !== 'PENDING' && delivery.endedHoursAgo > CUTOFF_HOURS) continue;
            held = true;
            expected.deliveries.push(ids[e]!.deliveries[d]!);
            for (let a = 1; a <= delivery.attempts; a++) expected.attempts.push(`wha_${e}_${d}_${a}`);
          }
          if (held || event.createdHoursAgo <= CUTOFF_HOURS) expected.events.push(ids[e]!.event);
        }

        const steps = () => [webhookRetention(new Date(now - RETENTION_DAYS * DAY))];
        const [dry] = await service.run(steps(), { dryRun: true, batchSize, pauseMs: 0 });
        const [run] = await service.run(steps(), { dryRun: false, batchSize, pauseMs: 0 });
        const left = await outboxLeft(db);
        assert.deepEqual(left, {
          events: expected.events.sort(),
          deliveries: expected.deliveries.sort(),
          attempts: expected.attempts.sort(),
        });
        assert.deepEqual(run!.rows, dry!.rows, 'the dry run counted what the run deleted');
      }),
      { numRuns: fuzzRuns(60, 8) },
    );
  } finally {
    await t.drop();
  }
});
