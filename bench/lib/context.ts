import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/platform/db/database.js';
import { runMigrations } from '../../src/platform/db/migrate.js';
import { openNewsroom, type Newsroom } from './newsroom.js';
import type { BenchSettings } from './settings.js';
import type { DB } from '../../src/tables.js';

/** Everything a scenario may use: the scratch database and Redis prefix of this run, and the app's secrets. */
export interface BenchContext {
  settings: BenchSettings;
  /** Random id of this run; scenarios use it to make actor ids and names unique. */
  runId: string;
  /** URL of the scratch database created for this run (migrated before any scenario runs). */
  databaseUrl: string;
  redisUrl: string;
  /** Every Redis key this run writes starts with this; the real app uses `${prefix}app:`. */
  redisKeyPrefix: string;
  /** HUMAN_SIGNING_SECRET of the real app. */
  humanSecret: string;
  /** AGENT_SIGNED_WRITE_AUD of the real app. */
  aud: string;
  /** The environment handed to loadConfig() for the real app. */
  appEnv: Record<string, string>;
  /** The scratch database, opened on first use: scenarios seed data through it in setup(). */
  database(): Promise<Database<DB>>;
  /**
   * The seeded newsroom database of the read scenarios (bench/seed/newsroom.ts): seeded on first use if no
   * reusable one exists (minutes), then shared by every scenario of the run.
   */
  newsroom(): Promise<Newsroom>;
  /** A path under the OS temp directory for this run, removed at the end (`name` must be unique in the run). */
  tempFile(name: string): string;
  /** Lines about the run as a whole (the seeded database), printed above the table. */
  notes: string[];
}

const UNLIMITED = '100000000';

/** Creates the scratch database (migrated) and picks the Redis prefix; dispose() removes both. */
export async function createBenchContext(settings: BenchSettings): Promise<BenchContext & { dispose(): Promise<void> }> {
  const runId = randomBytes(5).toString('hex');
  const dbName = `bench_${runId}`;
  const admin = new pg.Client({ connectionString: settings.databaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${dbName}`);
  } finally {
    await admin.end();
  }
  const url = new URL(settings.databaseUrl);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  const redisKeyPrefix = `bench:${runId}:`;
  const humanSecret = `bench-human-secret-${randomBytes(16).toString('hex')}`;
  const aud = 'svc';

  let database: Database<DB> | undefined;
  const open = async () => {
    database ??= await openDatabase<DB>({ databaseUrl, dataDir: '', poolMax: 4 });
    return database;
  };
  await runMigrations(await open());

  let newsroom: Promise<Newsroom & { close(): Promise<void> }> | undefined;
  const notes: string[] = [];
  const tempFiles: string[] = [];

  const appEnv: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: settings.redisUrl,
    REDIS_KEY_PREFIX: `${redisKeyPrefix}app:`,
    NONCE_STORE_DRIVER: 'redis',
    RATE_LIMIT_STORE_DRIVER: 'redis',
    HUMAN_SIGNING_SECRET: humanSecret,
    AGENT_SIGNED_WRITE_AUD: aud,
    LOG_LEVEL: 'silent',
    SEED_DEMO: '0',
    // The bench measures the work of a request, not 429s.
    RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_VERIFIED_WRITES_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_AGENT_JOINS_PER_MINUTE: UNLIMITED,
    // the read cache's time to live, for a run that separates its expiry from the rest (default: the service's)
    ...(process.env.BENCH_READ_CACHE_TTL_MS ? { READ_CACHE_TTL_MS: process.env.BENCH_READ_CACHE_TTL_MS } : {}),
    // and a story detail's longest life (default: the service's)
    ...(process.env.BENCH_READ_CACHE_STORY_TTL_MS ? { READ_CACHE_STORY_TTL_MS: process.env.BENCH_READ_CACHE_STORY_TTL_MS } : {}),
    // 0: every statement unnamed, as behind a pooler that does not track named ones (default: the service's)
    ...(process.env.BENCH_PREPARED_STATEMENTS ? { DATABASE_PREPARED_STATEMENTS: process.env.BENCH_PREPARED_STATEMENTS } : {}),
  };

  return {
    settings,
    runId,
    databaseUrl,
    redisUrl: settings.redisUrl,
    redisKeyPrefix,
    humanSecret,
    aud,
    appEnv,
    database: open,
    newsroom: () =>
      (newsroom ??= openNewsroom(settings, appEnv, (m) => console.error(`[bench] ${m}`)).then((n) => {
        notes.push(n.description);
        return n;
      })),
    notes,
    tempFile(name) {
      const path = join(tmpdir(), `bench-${runId}-${name}`);
      tempFiles.push(path);
      return path;
    },
    async dispose() {
      const problems: string[] = [];
      if (database) await database.close().catch((err: unknown) => problems.push(`closing the database: ${String(err)}`));
      if (newsroom) {
        await newsroom
          .then(
            (n) => n.close(),
            () => undefined, // its failure was reported where it was awaited
          )
          .catch((err: unknown) => problems.push(`closing the newsroom database: ${String(err)}`));
      }
      for (const file of tempFiles)
        await rm(file, { force: true }).catch((err: unknown) => problems.push(`removing ${file}: ${String(err)}`));
      const c = new pg.Client({ connectionString: settings.databaseUrl });
      try {
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      } catch (err) {
        problems.push(`dropping ${dbName}: ${String(err)}`);
      } finally {
        await c.end().catch(() => undefined);
      }
      try {
        await deleteRedisKeys(settings.redisUrl, redisKeyPrefix);
      } catch (err) {
        problems.push(`deleting Redis keys ${redisKeyPrefix}*: ${String(err)}`);
      }
      for (const p of problems) console.error(`cleanup: ${p}`);
    },
  };
}

async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2, lazyConnect: true });
  redis.on('error', () => undefined);
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 5000);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
