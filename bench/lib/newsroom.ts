import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/platform/db/database.js';
import { describeNewsroom, dropNewsroomDatabase, ensureNewsroomDatabase, type NewsroomInfo } from '../seed/newsroom.js';
import type { BenchSettings } from './settings.js';
import type { DB } from '../../src/tables.js';

/** The seeded newsroom database of the read scenarios, as a scenario's setup() sees it (ctx.newsroom()). */
export interface Newsroom {
  info: NewsroomInfo;
  /** One line saying what the database holds and how long its seed took. */
  description: string;
  url: string;
  /** Entries over ctx.appEnv that point the real app at this database (Side.env). */
  appEnv: Record<string, string>;
  /** The driver's own pool on it (sampling ids, EXPLAIN): setup only, never while measuring. */
  database: Database<DB>;
  /**
   * GET through the real app, built in the driver process on the same database (walking pages for
   * cursors, capturing the bodies the baseline answers). Setup only, never while measuring.
   */
  get(path: string): Promise<{ status: number; body: string }>;
}

/** Seeds (or reuses) the newsroom database and opens it; close() releases it and drops it when BENCH_KEEP_DB=0. */
export async function openNewsroom(
  settings: BenchSettings,
  appEnv: Record<string, string>,
  log: (m: string) => void,
): Promise<Newsroom & { close(): Promise<void> }> {
  const started = performance.now();
  const info = await ensureNewsroomDatabase(settings, log);
  const description = describeNewsroom(info);
  log(`${description}${info.reused ? ` (checked in ${((performance.now() - started) / 1000).toFixed(1)} s)` : ''}`);
  const env = { DATABASE_URL: info.url };
  const database = await openDatabase<DB>({ databaseUrl: info.url, dataDir: '', poolMax: 2 });
  let app: FastifyInstance | undefined;
  const appReady = async () =>
    (app ??= await buildApp(loadConfig({ ...appEnv, ...env, DATABASE_POOL_MAX: '2' }), { logger: false, migrate: false }));

  return {
    info,
    description,
    url: info.url,
    appEnv: env,
    database,
    async get(path) {
      const response = await (await appReady()).inject({ method: 'GET', url: path });
      return { status: response.statusCode, body: response.body };
    },
    async close() {
      await app?.close().catch((err: unknown) => log(`closing the in-process app: ${String(err)}`));
      await database.close().catch((err: unknown) => log(`closing the newsroom database: ${String(err)}`));
      if (!settings.keepNewsroomDb) {
        await dropNewsroomDatabase(settings);
        log(`dropped ${settings.newsroomDb} (BENCH_KEEP_DB=0)`);
      }
    },
  };
}
