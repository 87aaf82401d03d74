import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/platform/db/database.js';
import {
  checkRecordedMigrations,
  listMigrations,
  migrateAtStart,
  pendingMigrations,
  runMigrations,
} from '../../src/platform/db/migrate.js';
import { createEmptyDatabase, createTestDatabase, testEnv } from '../helpers/app.js';
import { throughPgbouncer, usingPgbouncer } from '../helpers/db-template.js';
import { needsPostgres } from '../helpers/needs.js';
import { runEntry } from '../helpers/ts-entry.js';
import type { DB } from '../../src/tables.js';

/**
 * Instances that start together each run the migrator: every migration is applied once, in order, and the
 * migrator leaves no lock behind. Under npm run test:pgbouncer the migrators connect through PgBouncer in
 * transaction mode, where consecutive statements of one client may run on different server connections: a
 * session advisory lock there is taken on one server connection and "released" on another, stays held on a
 * pooled connection, and the next migrator waits for it forever.
 */
test(
  'three migrators at once apply each migration once and leave no advisory lock held',
  { skip: needsPostgres('concurrent sessions'), timeout: 120_000 },
  async () => {
    const empty = await createEmptyDatabase();
    const url = await throughPgbouncer(empty.ownerUrl!);
    if (usingPgbouncer) assert.notEqual(new URL(url).port, new URL(empty.ownerUrl!).port, 'the migrators go through the pooler');
    const migrators = await Promise.all([1, 2, 3].map(() => openDatabase<DB>({ databaseUrl: url, dataDir: '', poolMax: 1 })));
    try {
      const applied = await Promise.all(migrators.map((m) => runMigrations(m)));
      const files = await listMigrations();
      assert.deepEqual(applied.flat().sort(), files, 'each migration applied by exactly one of them');
      for (const list of applied) assert.deepEqual(list, [...list].sort(), 'each applies in file order');
      const { rows } = await sql<{ name: string }>`SELECT name FROM schema_migrations ORDER BY applied_at, name`.execute(empty.owner.db);
      assert.deepEqual(
        rows.map((r) => r.name),
        files,
        'recorded once each, in order',
      );
      // a second round finds nothing to do (and does not wait for a lock someone kept)
      assert.deepEqual(await Promise.all(migrators.map((m) => runMigrations(m))), [[], [], []]);
      // the pooler keeps its server connections: a lock left on one of them would show here
      const { rows: locks } = await sql<{ held: number }>`
        SELECT count(*)::int AS held FROM pg_locks
        WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`.execute(
        empty.owner.db,
      );
      assert.equal(locks[0]!.held, 0, 'no advisory lock outlives the migration');
    } finally {
      await Promise.all(migrators.map((m) => m.close()));
      await empty.drop();
    }
  },
);

test('a data directory of another PostgreSQL major version is refused with a sentence saying what to do', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'newsroom-old-data-'));
  try {
    writeFileSync(join(dir, 'PG_VERSION'), '17\n');
    await assert.rejects(
      openDatabase<DB>({ databaseUrl: undefined, dataDir: dir, poolMax: 1 }),
      /holds a PostgreSQL 17 database; the embedded database is PostgreSQL 18\. Move the directory away/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Some of the names an unreleased build from before the baseline recorded (its migrations 0001..0032). */
const BEFORE_BASELINE = ['0001_foundation.sql', '0002_newsroom.sql', '0003_reads.sql', '0005_actor_bindings.sql', '0012_rewards.sql'];
const REFUSAL =
  /records migrations that this release does not have \(0001_foundation\.sql, 0002_newsroom\.sql, 0003_reads\.sql and \d+ more\).*Recreate it: move the embedded data directory \(DATA_DIR\) away, or give DATABASE_URL a new, empty database.*Nothing was changed/s;

test('a database made before the baseline is refused with a sentence saying what to do, and left as it was', async () => {
  const old = await createEmptyDatabase();
  const db = old.owner.db;
  try {
    await sql`CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(db);
    for (const name of BEFORE_BASELINE) await sql`INSERT INTO schema_migrations (name) VALUES (${name})`.execute(db);
    // the old build's own tables, which the baseline would try to create again
    await sql`CREATE TABLE idempotency_records (scope text, key text)`.execute(db);
    await assert.rejects(runMigrations(old.owner), REFUSAL);
    await assert.rejects(migrateAtStart(old.owner, undefined), REFUSAL, 'the service refuses to start');
    await assert.rejects(pendingMigrations(old.owner), REFUSAL, 'readiness names the refusal');
    const { rows } = await sql<{ name: string }>`SELECT name FROM schema_migrations ORDER BY name`.execute(db);
    assert.deepEqual(
      rows.map((r) => r.name),
      BEFORE_BASELINE,
      'nothing recorded',
    );
    const { rows: created } = await sql<{ present: boolean }>`SELECT to_regclass('audit_events') IS NOT NULL AS present`.execute(db);
    assert.equal(created[0]!.present, false, 'nothing created');
  } finally {
    await old.drop();
  }
});

test("a newer release's migrations are not refused: an instance of this release serves on them during a rolling upgrade", async () => {
  const shared = await createTestDatabase();
  try {
    await sql`INSERT INTO schema_migrations (name) VALUES ('9999_a_newer_release.sql')`.execute(shared.owner.db);
    assert.deepEqual(await runMigrations(shared.owner), []);
    assert.deepEqual(await pendingMigrations(shared.database), []);
  } finally {
    await shared.drop();
  }
});

test('which recorded names are refused: those not on disk that sort before the newest file on disk', () => {
  const files = ['0001_platform.sql', '0002_identity.sql', '0003_newsroom.sql'];
  checkRecordedMigrations(files, files);
  checkRecordedMigrations(['0001_platform.sql'], files);
  checkRecordedMigrations([...files, '0004_later.sql', '0010_much_later.sql'], files);
  checkRecordedMigrations([], files);
  assert.throws(() => checkRecordedMigrations(['0001_foundation.sql'], files), /\(0001_foundation\.sql\)/);
  assert.throws(() => checkRecordedMigrations([...files, '0002_renamed.sql'], files), /\(0002_renamed\.sql\)/);
});

test('an embedded data directory made before the baseline: npm run migrate and the service refuse it in one sentence, no stack', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'newsroom-before-baseline-'));
  try {
    const old = await openDatabase<DB>({ databaseUrl: undefined, dataDir: dir, poolMax: 1 });
    try {
      await sql`CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(old.db);
      for (const name of BEFORE_BASELINE) await sql`INSERT INTO schema_migrations (name) VALUES (${name})`.execute(old.db);
    } finally {
      await old.close();
    }
    const env = Object.fromEntries(
      Object.entries({ ...process.env, ...testEnv({ DATABASE_URL: undefined, MIGRATION_DATABASE_URL: undefined, DATA_DIR: dir }) }).filter(
        ([, v]) => v !== undefined,
      ),
    ) as NodeJS.ProcessEnv;
    const [migrate, start] = await Promise.all([
      runEntry('src/platform/db/migrate-cli.ts', [], env),
      runEntry('src/server.ts', [], { ...env, PORT: '0' }),
    ]);
    for (const [run, prefix] of [
      [migrate, 'refused: '],
      [start, 'refusing to start: '],
    ] as const) {
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stderr, REFUSAL);
      assert.ok(run.stderr.startsWith(prefix), run.stderr);
      assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
