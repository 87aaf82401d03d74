import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { needsPostgres } from '../helpers/needs.js';
import { prepareCrashWorld, type CrashWorld } from './crash.js';
import { startPrivateRedis, type PrivateRedis } from './harness.js';
import { outage } from './outage.js';

/**
 * Redis stopped under load and started again, on a private redis-server this test starts (never the shared
 * one). `npm run chaos` does the same with PostgreSQL (a private cluster) and reports the seconds to recover.
 */

const skip =
  needsPostgres('the service process needs a database it can reach from outside this process') ||
  (spawnSync('redis-server', ['--version']).status === 0 ? false : 'needs redis-server on PATH: the test stops its own Redis');

describe('Redis outage under load', () => {
  let db: TestDatabase;
  let redis: PrivateRedis;
  let world: CrashWorld;
  before(async () => {
    if (skip) return;
    db = await createTestDatabase();
    const started = await startPrivateRedis();
    if (typeof started === 'string') throw new Error(started);
    redis = started;
    world = await prepareCrashWorld(db.url!, redis.url, 'outage:');
  });
  after(async () => {
    if (skip) return;
    await world?.close();
    await redis?.destroy();
    await db.drop();
  });

  test(
    'while down: /readyz 503, signed writes 503 REDIS_UNAVAILABLE, reads 200 or 503; then back without a restart',
    { skip },
    async (t) => {
      const result = await outage(
        world.service,
        world.database.db,
        { server: 'redis', stop: () => redis.stop(), start: () => redis.start() },
        world.stories[0]!,
        3_000,
      );
      t.diagnostic(JSON.stringify(result));
      assert.deepEqual(result.problems, []);
      assert.deepEqual(Object.keys(result.whileDown.writes), ['503 REDIS_UNAVAILABLE']);
      assert.deepEqual(Object.keys(result.whileDown.readyz), ['503']);
      assert.notEqual(result.writesAfterMs, null);
      assert.ok(result.accepted > 0);
    },
  );
});
