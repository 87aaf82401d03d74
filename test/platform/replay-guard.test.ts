import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { manualClock } from '../../src/platform/clock.js';
import { createMemoryNonceStore, createRedisNonceStore, nonceKey } from '../../src/platform/nonce-store.js';
import { createMemoryRateLimitStore, createRedisRateLimitStore, rateLimitKey } from '../../src/platform/rate-limit-store.js';
import { createRedis, type RedisClient } from '../../src/platform/redis.js';
import { createReplayGuard, type ReplayGuard } from '../../src/platform/replay-guard.js';
import { needsRedis } from '../helpers/needs.js';
import { deleteRedisPrefix, testRedisPrefix } from '../helpers/redis.js';

const WINDOW_MS = 60_000;
const TTL_MS = 600_000;
const fresh = () => `n-${randomBytes(8).toString('hex')}`;

/** What a guard must do whatever it runs on: a write counts fresh nonces only, and the keys are the stores'. */
async function checkGuard(guard: ReplayGuard, stores: ReturnType<typeof storesOf>) {
  const rateKey = `human:${fresh()}`;
  const first = fresh();
  const hit = await guard.claimThenHit(first, TTL_MS, rateKey, WINDOW_MS);
  assert.equal(hit?.count, 1);
  assert.ok(hit.resetInMs > 0 && hit.resetInMs <= WINDOW_MS, `the window resets within a minute (${hit.resetInMs})`);
  // a replay is refused and leaves the count alone
  assert.equal(await guard.claimThenHit(first, TTL_MS, rateKey, WINDOW_MS), null);
  assert.equal(await guard.claimThenHit(first, TTL_MS, rateKey, WINDOW_MS), null);
  assert.equal((await guard.claimThenHit(fresh(), TTL_MS, rateKey, WINDOW_MS))?.count, 2);
  // the same keys as the stores: a nonce claimed by the guard is taken for the store, and the store's count goes on
  assert.equal(await stores.nonces.claim(first, TTL_MS), false);
  assert.equal((await stores.limits.hit(rateKey, WINDOW_MS)).count, 3);
  const claimed = fresh();
  assert.equal(await stores.nonces.claim(claimed, TTL_MS), true);
  assert.equal(await guard.claimThenHit(claimed, TTL_MS, rateKey, WINDOW_MS), null);
  assert.equal((await guard.claimThenHit(fresh(), TTL_MS, rateKey, WINDOW_MS))?.count, 4);
  await checkClaimAndHit(guard, stores);
  return { first, rateKey };
}

/** A join's claim and count: the count goes on for a replay too, on the stores' own keys. */
async function checkClaimAndHit(guard: ReplayGuard, stores: ReturnType<typeof storesOf>) {
  const rateKey = `join:${fresh()}`;
  const nonce = fresh();
  const first = await guard.claimAndHit(nonce, TTL_MS, rateKey, WINDOW_MS);
  assert.equal(first.claimed, true);
  assert.equal(first.hit.count, 1);
  assert.ok(first.hit.resetInMs > 0 && first.hit.resetInMs <= WINDOW_MS, `the window resets within a minute (${first.hit.resetInMs})`);
  const replay = await guard.claimAndHit(nonce, TTL_MS, rateKey, WINDOW_MS);
  assert.deepEqual([replay.claimed, replay.hit.count], [false, 2]);
  assert.equal(await stores.nonces.claim(nonce, TTL_MS), false);
  assert.equal((await stores.limits.hit(rateKey, WINDOW_MS)).count, 3);
  const next = await guard.claimAndHit(fresh(), TTL_MS, rateKey, WINDOW_MS);
  assert.deepEqual([next.claimed, next.hit.count], [true, 4]);
}

function storesOf(redis: RedisClient | undefined) {
  const clock = manualClock(Date.now());
  return redis
    ? { nonces: createRedisNonceStore(redis), limits: createRedisRateLimitStore(redis) }
    : { nonces: createMemoryNonceStore(clock), limits: createMemoryRateLimitStore(clock) };
}

describe('replay guard: the nonce claim and the rate-limit count of a signed write or a join', () => {
  const prefix = testRedisPrefix();
  let redis: RedisClient | undefined;
  after(async () => {
    redis?.disconnect();
    await deleteRedisPrefix(prefix);
  });

  test(
    'on one Redis server: one script, counting fresh nonces only, on the stores’ own keys',
    { skip: needsRedis('the script runs on Redis') },
    async () => {
      redis = createRedis({ kind: 'url', url: process.env.TEST_REDIS_URL! }, prefix);
      const stores = storesOf(redis);
      const guard = createReplayGuard(stores.nonces, stores.limits, redis);
      assert.equal(guard.mode, 'script');
      const { first, rateKey } = await checkGuard(guard, stores);
      // the nonce expires with its TTL, the counter with its window
      const nonceTtl = await redis.pttl(nonceKey(first));
      assert.ok(nonceTtl > TTL_MS - 60_000 && nonceTtl <= TTL_MS, `nonce TTL ${nonceTtl}`);
      const counterTtl = await redis.pttl(rateLimitKey(rateKey));
      assert.ok(counterTtl > 0 && counterTtl <= WINDOW_MS, `counter TTL ${counterTtl}`);
    },
  );

  test('in memory: the two steps, with the same answers', async () => {
    const stores = storesOf(undefined);
    const guard = createReplayGuard(stores.nonces, stores.limits, undefined);
    assert.equal(guard.mode, 'steps');
    await checkGuard(guard, stores);
  });
});
