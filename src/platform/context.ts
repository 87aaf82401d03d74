import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { systemClock, type Clock } from './clock.js';
import { createCursorCodec, cursorKey, type CursorCodec } from './cursor.js';
import { openDatabase, openRuntimeDatabase, type Database } from './db/database.js';
import { createReadReplica, type ReadReplica } from './db/read-replica.js';
import { createTransactor, type Transactor } from './db/transaction.js';
import { createMemoryNonceStore, createRedisNonceStore, type NonceStore } from './nonce-store.js';
import { createMemoryRateLimitStore, createRedisRateLimitStore, type RateLimitStore } from './rate-limit-store.js';
import { createMemoryReadGeneration, createRedisReadGeneration, type ReadGeneration } from './read-cache.js';
import { createRedis, type RedisClient } from './redis.js';
import { createReplayGuard, type ReplayGuard } from './replay-guard.js';

/**
 * The shared resources of one app instance, created once and handed to modules explicitly. `T` is the tables its
 * database holds: the whole database (src/tables.ts) at the composition root, platform's where platform uses it.
 */
export interface AppContext<T> {
  config: Config;
  database: Database<T>;
  /** The streaming read replica of DATABASE_READ_URL, for public reads (db/read-replica.ts); none without it. */
  readReplica: ReadReplica<T> | undefined;
  redis: RedisClient | undefined;
  nonceStore: NonceStore;
  rateLimitStore: RateLimitStore;
  /** A signed write's nonce claim and rate-limit count in one step (one Redis call where both stores share it). */
  replayGuard: ReplayGuard;
  /** The read generation every write moves on (shared through Redis whenever the app has one). */
  readGeneration: ReadGeneration;
  /** The one way to write: transactions whose commits move the read generation on (see db/transaction.ts). */
  transactor: Transactor<T>;
  clock: Clock;
  /** The pagination cursors, checked with the service's key (every instance of a deployment shares it). */
  cursors: CursorCodec;
  /** False when the database was handed in (tests sharing one database between app instances). */
  ownsDatabase: boolean;
}

export interface ContextOverrides<T> {
  database?: Database<T>;
  clock?: Clock;
  /** Where failures of after-commit steps are reported (the app's logger). */
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

/** Opens the database and the stores that the configuration names. */
export async function createContext<T>(config: Config, overrides: ContextOverrides<T> = {}): Promise<AppContext<T>> {
  const clock = overrides.clock ?? systemClock;
  const needsRedis = config.nonceStoreDriver === 'redis' || config.rateLimitStoreDriver === 'redis';
  const redis = needsRedis && config.redis ? createRedis(config.redis, config.redisKeyPrefix) : undefined;
  const database = overrides.database ?? (await openRuntimeDatabase<T>(config));
  // the replica's pool: short limits, so that a replica gone away costs a read little before the primary serves it
  const readReplica = config.databaseReadUrl
    ? createReadReplica({
        primary: database.db,
        replica: await openDatabase<T>({
          databaseUrl: config.databaseReadUrl,
          dataDir: '',
          poolMax: config.databasePoolMax,
          connectTimeoutMs: 1_000,
          queryTimeoutMs: 10_000,
          applicationName: 'newsroom-read',
          preparedStatements: config.databasePreparedStatements,
        }),
        maxLagMs: config.databaseReadMaxLagMs,
      })
    : undefined;
  const readGeneration = redis ? createRedisReadGeneration(redis) : createMemoryReadGeneration(clock);
  const transactor = createTransactor(
    database.db,
    [
      async ({ storiesChanged }) => {
        if (storiesChanged.size > 0) await readGeneration.bump([...storiesChanged]);
      },
    ],
    (err) => overrides.log?.warn({ err }, 'an after-commit step failed; the write itself committed'),
  );
  const nonceStore = config.nonceStoreDriver === 'redis' && redis ? createRedisNonceStore(redis) : createMemoryNonceStore(clock);
  const rateLimitStore =
    config.rateLimitStoreDriver === 'redis' && redis ? createRedisRateLimitStore(redis) : createMemoryRateLimitStore(clock);
  return {
    config,
    database,
    readReplica,
    redis,
    nonceStore,
    rateLimitStore,
    replayGuard: createReplayGuard(nonceStore, rateLimitStore, redis),
    readGeneration,
    transactor,
    clock,
    cursors: createCursorCodec(cursorKey(config.cursorSigningSecret, config.humanSigningSecrets[0])),
    ownsDatabase: overrides.database === undefined,
  };
}
