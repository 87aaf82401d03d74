import { Redis } from 'ioredis';

/** One ioredis client per app; the key prefix keeps services (and test runs) that share a Redis apart. */
export function createRedis(url: string, keyPrefix: string): Redis {
  const redis = new Redis(url, {
    keyPrefix,
    lazyConnect: false,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    connectTimeout: 2_000,
    // reconnect at most a second after Redis is back (ioredis' default waits up to 2 s between attempts)
    retryStrategy: (times: number) => Math.min(times * 100, 1_000),
    // commands issued in the same tick (a nonce claim and a rate-limit count) share one round trip
    enableAutoPipelining: true,
  });
  // Connection errors surface through commands (and readiness); an unhandled 'error' event would crash.
  redis.on('error', () => undefined);
  // Until the first connection, commands wait for it (the service is starting). Once connected, a command
  // sent while the connection is down fails at once (503 REDIS_UNAVAILABLE) instead of queueing behind
  // reconnection attempts: requests do not pile up during an outage, and resume when Redis is back.
  redis.once('ready', () => {
    redis.options.enableOfflineQueue = false;
  });
  return redis;
}
