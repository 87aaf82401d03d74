import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/platform/db/database.js';
import { listMigrations, runMigrations } from '../../src/platform/db/migrate.js';
import { createEmptyDatabase } from '../helpers/app.js';
import { throughPgbouncer, usingPgbouncer } from '../helpers/db-template.js';
import { needsPostgres } from '../helpers/needs.js';

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
    const migrators = await Promise.all([1, 2, 3].map(() => openDatabase({ databaseUrl: url, dataDir: '', poolMax: 1 })));
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
      openDatabase({ databaseUrl: undefined, dataDir: dir, poolMax: 1 }),
      /holds a PostgreSQL 17 database; the embedded database is PostgreSQL 18\. Move the directory away/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
