import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { needsPostgres, needsRedis } from '../helpers/needs.js';
import { deleteRedisPrefix, testRedisPrefix } from '../helpers/redis.js';
import { crashRound, prepareCrashWorld, type CrashWorld } from './crash.js';

/**
 * SIGKILL of a service process under a steady signed-write load, twice here (at a short and a longer point);
 * `npm run chaos` repeats it 20 times at random points (test/chaos/run.ts).
 */

const skip = needsPostgres('the killed process and its successor share one database') || needsRedis('nonces outlive the process');

describe('a service killed under load', () => {
  let db: TestDatabase;
  let prefix: string;
  let world: CrashWorld;
  before(async () => {
    if (skip) return;
    db = await createTestDatabase();
    prefix = testRedisPrefix();
    world = await prepareCrashWorld(db.url!, process.env.TEST_REDIS_URL!, prefix);
  });
  after(async () => {
    if (skip) return;
    await world?.close();
    await db.drop();
    await deleteRedisPrefix(prefix);
  });

  for (const [round, killAfterMs] of [
    [1, 300],
    [2, 1500],
  ] as const) {
    test(
      `kill -9 ${killAfterMs} ms into the load: every accepted write once, nothing half-written, deliveries resume`,
      { skip },
      async (t) => {
        const result = await crashRound(world, round, killAfterMs);
        t.diagnostic(JSON.stringify(result));
        assert.deepEqual(result.problems, []);
        assert.ok(result.accepted > 0, 'the driver got writes accepted before the kill');
        if (round === 2) assert.ok(result.acceptedCorrections > 0, 'corrections (with their outbox rows) were among them');
      },
    );
  }
});
