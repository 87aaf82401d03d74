import type { RedisClient } from './redis.js';
import type { Clock } from './clock.js';

export interface RateLimitHit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window resets. */
  resetInMs: number;
}

/** Fixed-window counters shared by every instance (INCR + PEXPIRE in one Lua call on Redis). */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
  readonly driver: 'memory' | 'redis';
}

/**
 * One hit of a fixed window, as Lua: the counter is the script's last key, the window (ms) is `window`; it leaves
 * the count and the milliseconds left in `count` and `ttl`. Shared with the replay guard's scripts, which run it
 * next to a nonce claim.
 */
export const HIT_STEPS = `
local counter = KEYS[#KEYS]
local count = redis.call('INCR', counter)
if count == 1 then redis.call('PEXPIRE', counter, window) end
local ttl = redis.call('PTTL', counter)
if ttl < 0 then redis.call('PEXPIRE', counter, window); ttl = tonumber(window) end
`;

const HIT_SCRIPT = `
local window = ARGV[1]
${HIT_STEPS}
return { count, ttl }
`;

/** The Redis key of a rate-limit counter (under the client's key prefix). */
export const rateLimitKey = (key: string) => `rl:${key}`;

export function createRedisRateLimitStore(redis: RedisClient): RateLimitStore {
  redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  const client = redis as RedisClient & { rateLimitHit(key: string, windowMs: number): Promise<[number, number]> };
  return {
    driver: 'redis',
    async hit(key, windowMs) {
      const [count, ttl] = await client.rateLimitHit(rateLimitKey(key), windowMs);
      return { count, resetInMs: ttl };
    },
  };
}

export function createMemoryRateLimitStore(clock: Clock): RateLimitStore {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = clock.now();
  return {
    driver: 'memory',
    async hit(key, windowMs) {
      const now = clock.now();
      if (now - lastSweep > 60_000) {
        for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
        lastSweep = now;
      }
      let w = windows.get(key);
      if (!w || w.resetAt <= now) {
        w = { count: 0, resetAt: now + windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return { count: w.count, resetInMs: w.resetAt - now };
    },
  };
}
