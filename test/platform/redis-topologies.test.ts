import { after, before, describe } from 'node:test';
import {
  redisServerMissing,
  singleNodeTopology,
  startRedisCluster,
  startRedisSentinel,
  type RedisTopology,
} from '../helpers/redis-topologies.js';
import { sharedRedisSuite } from '../helpers/shared-redis-suite.js';
import { needsRedis } from '../helpers/needs.js';

/**
 * What instances share through Redis, on each deployment the service supports: the suite's Redis server
 * (TEST_REDIS_URL), a Redis Cluster of three masters and a master with a replica behind Sentinel, the last two
 * started here on free ports and torn down after (docs/operators.md, "Redis beyond one node").
 */

describe('shared stores on one Redis server', () => {
  const skip = needsRedis('two instances share nonces, limits and read generations through Redis');
  sharedRedisSuite(() => singleNodeTopology(process.env.TEST_REDIS_URL!), skip);
});

for (const [name, start, failover] of [
  ['shared stores on a Redis Cluster', startRedisCluster, false],
  ['shared stores on Redis Sentinel', startRedisSentinel, true],
] as const) {
  describe(name, () => {
    let topology: RedisTopology | undefined;
    before(async () => {
      if (!redisServerMissing) topology = await start();
    });
    after(() => topology?.stop());
    sharedRedisSuite(() => topology!, redisServerMissing, { failover });
  });
}
