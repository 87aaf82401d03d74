import { Cluster } from 'ioredis';
import type { NonceStore } from './nonce-store.js';
import { nonceKey } from './nonce-store.js';
import type { RateLimitHit, RateLimitStore } from './rate-limit-store.js';
import { HIT_STEPS, rateLimitKey } from './rate-limit-store.js';
import type { RedisClient } from './redis.js';

/**
 * A signed request's two Redis steps, the nonce claim and a rate-limit count, as one. A signed write counts
 * against its signer only when the nonce was fresh, so a refused replay never uses up its owner's limit; a join
 * counts against its client address either way, so a replay still costs the one who sends it.
 */
export interface ReplayGuard {
  /** Claims `nonce` for `ttlMs`; when it was fresh, counts one hit on `rateKey` and answers it; null for a replay. */
  claimThenHit(nonce: string, ttlMs: number, rateKey: string, windowMs: number): Promise<RateLimitHit | null>;
  /** Claims `nonce` for `ttlMs` and counts one hit on `rateKey`, whether or not the nonce was fresh. */
  claimAndHit(nonce: string, ttlMs: number, rateKey: string, windowMs: number): Promise<{ claimed: boolean; hit: RateLimitHit }>;
  /** 'script': one Redis call does both; 'steps': the claim and the count apart (the stores apart, or a cluster). */
  readonly mode: 'script' | 'steps';
}

// the rate-limit store's steps, run only after the nonce's SET NX succeeded
const CLAIM_THEN_HIT_SCRIPT = `
if not redis.call('SET', KEYS[1], '1', 'PX', ARGV[1], 'NX') then return false end
local window = ARGV[2]
${HIT_STEPS}
return { count, ttl }
`;

// the rate-limit store's steps, run whatever the nonce's SET NX answered
const CLAIM_AND_HIT_SCRIPT = `
local claimed = redis.call('SET', KEYS[1], '1', 'PX', ARGV[1], 'NX')
local window = ARGV[2]
${HIT_STEPS}
return { claimed and 1 or 0, count, ttl }
`;

type ScriptClient = RedisClient & {
  claimThenHit(nonce: string, rate: string, ttlMs: number, windowMs: number): Promise<[number, number] | null>;
  claimAndHit(nonce: string, rate: string, ttlMs: number, windowMs: number): Promise<[number, number, number]>;
};

/**
 * One round trip instead of two where both stores live in the same Redis server (a single node or a Sentinel
 * master). On a Redis Cluster the nonce and the counter hash to different slots and one script may not touch
 * both, so the guard takes the two steps there, as it does when either store is in memory.
 */
export function createReplayGuard(nonces: NonceStore, limits: RateLimitStore, redis: RedisClient | undefined): ReplayGuard {
  if (redis && !(redis instanceof Cluster) && nonces.driver === 'redis' && limits.driver === 'redis') {
    redis.defineCommand('claimThenHit', { numberOfKeys: 2, lua: CLAIM_THEN_HIT_SCRIPT });
    redis.defineCommand('claimAndHit', { numberOfKeys: 2, lua: CLAIM_AND_HIT_SCRIPT });
    const client = redis as ScriptClient;
    return {
      mode: 'script',
      async claimThenHit(nonce, ttlMs, rateKey, windowMs) {
        const answer = await client.claimThenHit(nonceKey(nonce), rateLimitKey(rateKey), ttlMs, windowMs);
        return answer ? { count: answer[0], resetInMs: answer[1] } : null;
      },
      async claimAndHit(nonce, ttlMs, rateKey, windowMs) {
        const [claimed, count, ttl] = await client.claimAndHit(nonceKey(nonce), rateLimitKey(rateKey), ttlMs, windowMs);
        return { claimed: claimed === 1, hit: { count, resetInMs: ttl } };
      },
    };
  }
  return {
    mode: 'steps',
    async claimThenHit(nonce, ttlMs, rateKey, windowMs) {
      if (!(await nonces.claim(nonce, ttlMs))) return null;
      return limits.hit(rateKey, windowMs);
    },
    async claimAndHit(nonce, ttlMs, rateKey, windowMs) {
      const [claimed, hit] = await Promise.all([nonces.claim(nonce, ttlMs), limits.hit(rateKey, windowMs)]);
      return { claimed, hit };
    },
  };
}
