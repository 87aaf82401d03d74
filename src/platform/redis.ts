import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { RedisTarget } from '../config.js';

/**
 * The service's Redis client: one server or a master found through Sentinel (ioredis `Redis`), or a Redis
 * Cluster (ioredis `Cluster`). Both take the same commands; what differs on a cluster is that the keys of one
 * command (MGET, a script's KEYS) must share a hash slot: the stores hash-tag them.
 */
export type RedisClient = Redis | Cluster;

// Reconnect at most a second after Redis is back (ioredis' default waits up to 2 s between attempts).
const retry = (times: number) => Math.min(times * 100, 1_000);

/**
 * A master that became a replica (a Sentinel failover) answers writes with READONLY until the client is told:
 * reconnect (which asks the sentinels for the master again) and send the command again.
 */
const reconnectOnReadonly = (err: Error) => (err.message.startsWith('READONLY') ? 2 : false);

/** One client per app; the key prefix keeps services (and test runs) that share a Redis apart. */
export function createRedis(target: RedisTarget, keyPrefix: string): RedisClient {
  const options: RedisOptions = {
    keyPrefix,
    lazyConnect: false,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    connectTimeout: 2_000,
    retryStrategy: retry,
    // commands issued in the same tick (a nonce claim and a rate-limit count) share one round trip
    enableAutoPipelining: true,
  };
  const redis: RedisClient =
    target.kind === 'url'
      ? new Redis(target.url, options)
      : target.kind === 'sentinel'
        ? new Redis({
            ...options,
            sentinels: target.sentinels,
            name: target.name,
            sentinelRetryStrategy: retry,
            // the sentinels' +switch-master moves the client to the new master without waiting for an error
            failoverDetector: true,
            reconnectOnError: reconnectOnReadonly,
          })
        : new Cluster(target.nodes, {
            keyPrefix,
            enableOfflineQueue: true,
            enableAutoPipelining: true,
            clusterRetryStrategy: retry,
            redisOptions: { connectTimeout: 2_000, maxRetriesPerRequest: 2 },
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
