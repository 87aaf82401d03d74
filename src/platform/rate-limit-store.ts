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

const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { count, ttl }
`;

export function createRedisRateLimitStore(redis: RedisClient): RateLimitStore {
  redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  const client = redis as RedisClient & { rateLimitHit(key: string, windowMs: number): Promise<[number, number]> };
  return {
    driver: 'redis',
    async hit(key, windowMs) {
      const [count, ttl] = await client.rateLimitHit(`rl:${key}`, windowMs);
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
