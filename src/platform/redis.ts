import { Redis } from 'ioredis';

/** One ioredis client per app; the key prefix keeps services (and test runs) that share a Redis apart. */
export function createRedis(url: string, keyPrefix: string): Redis {
  const redis = new Redis(url, {
    keyPrefix,
    lazyConnect: false,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    connectTimeout: 2_000,
    // commands issued in the same tick (a nonce claim and a rate-limit count) share one round trip
    enableAutoPipelining: true,
  });
  // Connection errors surface through commands (and readiness); an unhandled 'error' event would crash.
  redis.on('error', () => undefined);
  return redis;
}
