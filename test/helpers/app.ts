import { after } from 'node:test';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { seedDemoIfEmpty } from '../../src/demo/seed.js';
import { openDatabase, type Database } from '../../src/platform/db/database.js';
import {
  closeIdlePglite,
  clonePglite,
  clonePgliteDemo,
  clonePostgres,
  emptyPostgres,
  settleDrops,
  stopPgbouncer,
  poolerEnv,
} from './db-template.js';
import { closeAtProcessEnd } from './process-end.js';
import { deleteRedisPrefix, testRedisPrefix, trackRedisPrefix } from './redis.js';
import type { DB } from '../../src/tables.js';

/**
 * Test apps run against the real servers when TEST_DATABASE_URL / TEST_REDIS_URL are set (CI), else on
 * PGlite and the memory stores. Each test database is new (or emptied), so tests never see each other's data.
 */
export const usingRealPostgres = Boolean(process.env.TEST_DATABASE_URL);
export const usingRealRedis = Boolean(process.env.TEST_REDIS_URL);

// At the end of each test process (a group of test files: scripts/run-tests.mjs): PGlite databases kept for
// reuse are closed, and the drops of test databases on the server, which run in the background, are waited for
// (test/helpers/db-template.ts); a PgBouncer this process started (TEST_PGBOUNCER=1) is stopped; what helpers
// shared between the process's files is closed (test/helpers/process-end.ts).
after(async () => {
  await closeAtProcessEnd();
  await closeIdlePglite();
  await settleDrops();
  await stopPgbouncer();
});

export const TEST_SECRET = 'test-human-signing-secret';
export const TEST_API_KEY = 'test-public-api-key';
export const TEST_OPS_TOKEN = 'test-operations-token';

export interface TestDatabase {
  /** The service's connection: on the test server the runtime role (RUNTIME_LOGIN), which owns nothing. */
  url: string | undefined;
  database: Database<DB>;
  /**
   * The owner's connection (the role that migrated the database), for what the service may not do: run
   * migrations, change the schema, forge or remove rows of the record tables. PGlite has one role: there it is
   * `database` itself.
   */
  ownerUrl: string | undefined;
  owner: Database<DB>;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database: a new database on the test server, or a new PGlite, both copied from a template
 * migrated once (test/helpers/db-template.ts).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    const { database, drop } = await clonePglite();
    return onPglite(database, drop);
  }
  return clonePostgres(base);
}

/** A PGlite database as a test database: PGlite has one role, so the owner's connection is the service's. */
function onPglite(database: Database<DB>, drop: () => Promise<void>): TestDatabase {
  return { url: undefined, database, ownerUrl: undefined, owner: database, drop };
}

/** `fn` on a new test database (createTestDatabase), dropped afterwards whatever `fn` does. */
export async function withTestDatabase<T>(fn: (db: TestDatabase) => Promise<T>): Promise<T> {
  const db = await createTestDatabase();
  try {
    return await fn(db);
  } finally {
    await db.drop();
  }
}

/**
 * A database on which no migration ran (on the test server, or an in-memory PGlite): for tests of the migrator,
 * which run it with `owner`.
 */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (base) return emptyPostgres(base);
  const database = await openDatabase<DB>({ databaseUrl: undefined, dataDir: 'memory://', poolMax: 1 });
  return onPglite(database, () => database.close());
}

export type Env = Record<string, string | undefined>;

/** The environment of a test app: secrets and keys set, stores on Redis when the suite has one. */
export function testEnv(overrides: Env = {}, redisPrefix = testRedisPrefix()): Env {
  const redis = process.env.TEST_REDIS_URL;
  trackRedisPrefix(overrides.REDIS_KEY_PREFIX);
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    HUMAN_SIGNING_SECRET: TEST_SECRET,
    PUBLIC_API_KEYS: TEST_API_KEY,
    API_OPERATIONS_TOKEN: TEST_OPS_TOKEN,
    SEED_DEMO: '0',
    RATE_LIMIT_AGENT_JOINS_PER_MINUTE: '100000',
    // many logins and forms from one test address: the tests of these limits set them back
    RATE_LIMIT_SITE_LOGINS_PER_MINUTE: '100000',
    RATE_LIMIT_SITE_FORMS_PER_MINUTE: '100000',
    ...poolerEnv,
    ...(redis ? { REDIS_URL: redis, NONCE_STORE_DRIVER: 'redis', RATE_LIMIT_STORE_DRIVER: 'redis', REDIS_KEY_PREFIX: redisPrefix } : {}),
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  db: TestDatabase;
  /** http://127.0.0.1:<port> once listen() was called. */
  baseUrl: string;
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** Builds an app on its own fresh database (or on `shared`, to play a second instance). */
export async function createTestApp(env: Env = {}, shared?: TestDatabase, plugins: FastifyPluginAsync[] = []): Promise<TestApp> {
  return appOn(shared ?? (await createTestDatabase()), !shared, env, plugins);
}

/**
 * Builds an app on its own fresh database holding the demo newsroom (src/demo/seed.ts, as `npm start` seeds it).
 * On PGlite the demo is seeded once per test run and copied (test/helpers/db-template.ts); on the test server
 * each database is seeded.
 */
export async function createDemoTestApp(env: Env = {}): Promise<TestApp> {
  if (usingRealPostgres) {
    const t = await createTestApp(env);
    await seedDemoIfEmpty(t.app.ctx);
    return t;
  }
  const { database, drop } = await clonePgliteDemo(async (seeding) => {
    const seeder = await appOn(
      onPglite(seeding, async () => {}),
      false,
      {},
      [],
    );
    try {
      await seedDemoIfEmpty(seeder.app.ctx);
    } finally {
      await seeder.close();
    }
  });
  return appOn(onPglite(database, drop), true, env, []);
}

async function appOn(db: TestDatabase, owned: boolean, env: Env, plugins: FastifyPluginAsync[]): Promise<TestApp> {
  const config = loadConfig(testEnv({ ...(db.url ? { DATABASE_URL: db.url } : {}), ...env }));
  const app = await buildApp(config, { database: db.database, logger: false, migrate: false, plugins });
  const testApp: TestApp = {
    app,
    config,
    db,
    baseUrl: '',
    async listen() {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      testApp.baseUrl = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
      return testApp.baseUrl;
    },
    async close() {
      await app.close();
      if (owned) await db.drop();
      await deleteRedisPrefix(config.redisKeyPrefix);
    },
  };
  return testApp;
}
