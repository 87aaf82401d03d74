import { Cluster } from 'ioredis';
import type { NonceStore } from './nonce-store.js';
import { nonceKey } from './nonce-store.js';
import type { RateLimitHit, RateLimitStore } from './rate-limit-store.js';
import { HIT_STEPS, rateLimitKey } from './rate-limit-store.js';
import type { RedisClient } from './redis.js';

/**
 * A signed write's two Redis steps, the nonce claim and the signer's rate-limit count, as one: the count is
 * taken only when the nonce was fresh, so a refused replay never uses up its owner's limit.
 */
export interface ReplayGuard {
  /** Claims `nonce` for `ttlMs`; when it was fresh, counts one hit on `rateKey` and answers it; null for a replay. */
  claimThenHit(nonce: string, ttlMs: number, rateKey: string, windowMs: number): Promise<RateLimitHit | null>;
  /** 'script': one Redis call does both; 'steps': the claim, then the count (the stores apart, or a cluster). */
  readonly mode: 'script' | 'steps';
}

// the rate-limit store's script, run only after the nonce's SET NX succeeded
const CLAIM_THEN_HIT_SCRIPT = `
if not redis.call('SET', KEYS[1], '1', 'PX', ARGV[1], 'NX') then return false end
local window = ARGV[2]
${HIT_STEPS}
`;

/**
 * One round trip instead of two where both stores live in the same Redis server (a single node or a Sentinel
 * master). On a Redis Cluster the nonce and the counter hash to different slots and one script may not touch
 * both, so the guard takes the two steps there, as it does when either store is in memory.
 */
export function createReplayGuard(nonces: NonceStore, limits: RateLimitStore, redis: RedisClient | undefined): ReplayGuard {
  if (redis && !(redis instanceof Cluster) && nonces.driver === 'redis' && limits.driver === 'redis') {
    redis.defineCommand('claimThenHit', { numberOfKeys: 2, lua: CLAIM_THEN_HIT_SCRIPT });
    const client = redis as RedisClient & {
      claimThenHit(nonce: string, rate: string, ttlMs: number, windowMs: number): Promise<[number, number] | null>;
    };
    return {
      mode: 'script',
      async claimThenHit(nonce, ttlMs, rateKey, windowMs) {
        const answer = await client.claimThenHit(nonceKey(nonce), rateLimitKey(rateKey), ttlMs, windowMs);
        return answer ? { count: answer[0], resetInMs: answer[1] } : null;
      },
    };
  }
  return {
    mode: 'steps',
    async claimThenHit(nonce, ttlMs, rateKey, windowMs) {
      if (!(await nonces.claim(nonce, ttlMs))) return null;
      return limits.hit(rateKey, windowMs);
    },
  };
}
