import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase, type Database } from '../../src/platform/db/database.js';
import { createTestDatabase, testEnv } from '../helpers/app.js';
import { clonePgliteDir } from '../helpers/db-template.js';
import { seedIdempotency } from './support.js';
import { runEntry, type EntryRun } from '../helpers/ts-entry.js';
import type { DB } from '../../src/tables.js';

/** `npm run retention` in a child process, on the database of `env` (DATABASE_URL, or the embedded one in DATA_DIR). */
function retentionCli(args: string[], env: Record<string, string | undefined>): Promise<EntryRun> {
  const childEnv = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
  return runEntry('src/retention-cli.ts', args, childEnv);
}

/** The line of `table` in the command's output, split into its columns. */
const row = (stdout: string, table: string) =>
  stdout
    .split('\n')
    .find((line) => line.startsWith(`${table} `))
    ?.trim()
    .split(/\s+/);

const keys = async (database: Database<DB>) =>
  (await database.db.selectFrom('idempotency_records').select('key').orderBy('key').execute()).map((r) => r.key);

test('npm run retention: --dry-run prints what would go and deletes nothing; the run deletes it (DATABASE_URL, or the embedded database without it)', async () => {
  const now = Date.now();
  let env: Record<string, string | undefined>;
  let database: Database<DB>;
  let cleanup: () => Promise<void>;
  if (process.env.TEST_DATABASE_URL) {
    const t = await createTestDatabase();
    database = t.database;
    env = { DATABASE_URL: t.url };
    cleanup = () => t.drop();
  } else {
    // the command opens the data directory itself: the test's own connection is closed while it runs
    const dir = await clonePgliteDir();
    const open = () => openDatabase<DB>({ databaseUrl: undefined, dataDir: dir.dir, poolMax: 1 });
    database = await open();
    await seedIdempotency(database.db, now, 'cli', 3, 2);
    await database.close();
    env = { DATABASE_URL: undefined, DATA_DIR: dir.dir };
    cleanup = async () => {
      await database.close().catch(() => undefined);
      dir.remove();
    };
  }
  try {
    if (env.DATABASE_URL) await seedIdempotency(database.db, now, 'cli', 3, 2);
    const base = testEnv({ ...env, LOG_LEVEL: 'silent' });

    const dry = await retentionCli(['--dry-run'], base);
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(dry.stdout, /dry run/);
    assert.deepEqual(row(dry.stdout, 'idempotency_records')?.slice(0, 3), ['idempotency_records', '3', '0'], dry.stdout);
    assert.deepEqual(row(dry.stdout, 'webhook_deliveries')?.slice(0, 2), ['webhook_deliveries', '0'], dry.stdout);

    const run = await retentionCli(['--batch-size', '2', '--pause-ms', '1'], base);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(row(run.stdout, 'idempotency_records')?.slice(0, 3), ['idempotency_records', '3', '2'], run.stdout);

    if (!env.DATABASE_URL) database = await openDatabase<DB>({ databaseUrl: undefined, dataDir: env.DATA_DIR!, poolMax: 1 });
    assert.deepEqual(await keys(database), ['live-0', 'live-1'], 'the expired records are gone, the live ones kept');

    const refused = await retentionCli(['--batch-size', '0'], base);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /--batch-size must be an integer from 1 to 10000/);
  } finally {
    await cleanup();
  }
});
