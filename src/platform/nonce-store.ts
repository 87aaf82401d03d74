import type { RedisClient } from './redis.js';
import type { Clock } from './clock.js';

/**
 * Records signed-request nonces. `claim` is atomic: it answers true only for the first caller of a key
 * within the TTL, across every instance sharing the store.
 */
export interface NonceStore {
  claim(key: string, ttlMs: number): Promise<boolean>;
  ping(): Promise<void>;
  readonly driver: 'memory' | 'redis';
}

/** The Redis key of a nonce (under the client's key prefix). */
export const nonceKey = (key: string) => `nonce:${key}`;

export function createRedisNonceStore(redis: RedisClient): NonceStore {
  return {
    driver: 'redis',
    async claim(key, ttlMs) {
      const result = await redis.set(nonceKey(key), '1', 'PX', ttlMs, 'NX');
      return result === 'OK';
    },
    async ping() {
      await redis.ping();
    },
  };
}

/** Single-process store for local development and tests without Redis. */
export function createMemoryNonceStore(clock: Clock): NonceStore {
  const seen = new Map<string, number>();
  let lastSweep = clock.now();
  return {
    driver: 'memory',
    async claim(key, ttlMs) {
      const now = clock.now();
      if (now - lastSweep > 60_000) {
        for (const [k, expires] of seen) if (expires <= now) seen.delete(k);
        lastSweep = now;
      }
      const expires = seen.get(key);
      if (expires !== undefined && expires > now) return false;
      seen.set(key, now + ttlMs);
      return true;
    },
    async ping() {},
  };
}
