import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseRefusedError, openDatabase, type Database, type Session } from './database.js';
import type { PlatformTables } from '../tables.js';

/** migrations/ at the package root, whether running from src/ (tsx) or dist/src/ (built). */
export function migrationsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = resolve(dir, '..');
    if (parent === dir) throw new Error('package root not found');
    dir = parent;
  }
  return join(dir, 'migrations');
}

export async function listMigrations(dir = migrationsDir()): Promise<string[]> {
  return (await readdir(dir)).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).sort();
}

const LOCK_KEY = 7_346_221_001;

/**
 * Refuses a database whose schema_migrations records a migration that is not on disk and sorts before the newest
 * file on disk: a database made by a build whose migrations were replaced (an unreleased build from before the
 * baseline), which no migration can bring to this schema. Names after the newest file are a newer release's
 * (forward-only migrations): an instance of this release still serves on that schema during a rolling upgrade.
 */
export function checkRecordedMigrations(recorded: Iterable<string>, files: string[]): void {
  const onDisk = new Set(files);
  const newest = files[files.length - 1] ?? '';
  const foreign = [...recorded].filter((name) => !onDisk.has(name) && name < newest).sort();
  if (foreign.length === 0) return;
  const named = foreign.slice(0, 3).join(', ') + (foreign.length > 3 ? ` and ${foreign.length - 3} more` : '');
  throw new DatabaseRefusedError(
    `the database records migrations that this release does not have (${named}): it was made by an unreleased ` +
      'build from before the schema baseline, and cannot be migrated. Recreate it: move the embedded data directory ' +
      '(DATA_DIR) away, or give DATABASE_URL a new, empty database, then start again (docs/migrations.md, ' +
      '"The baseline"). Nothing was changed.',
  );
}

/** The files not recorded in schema_migrations (all of them when the table does not exist yet). */
async function notApplied(session: Session, files: string[]): Promise<string[]> {
  const [table] = await session.query<{ present: boolean }>(`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`);
  if (!table?.present) return files;
  const done = new Set((await session.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
  checkRecordedMigrations(done, files);
  return files.filter((f) => !done.has(f));
}

/**
 * Applies every migration not yet recorded in schema_migrations, each in its own transaction, under a
 * transaction-scoped advisory lock so that several instances starting together apply each migration once: each
 * transaction takes the lock, looks again whether its migration is recorded, and applies and records it or
 * commits nothing. Nothing here outlives a transaction (no session lock, no session setting), so the migrator
 * also works through a pooler in transaction mode, and a migrator that
 * dies mid-way leaves no lock behind on a pooled server connection.
 * A database made before the baseline is refused before anything is applied (checkRecordedMigrations).
 * Returns the names applied by this call. A database with nothing pending is left alone before the lock and
 * without creating anything, so the runtime role (which may create nothing) starts on a database the owner
 * has migrated; with something pending, `database` must connect as the owner (MIGRATION_DATABASE_URL).
 */
export async function runMigrations(database: Database<PlatformTables>, dir = migrationsDir()): Promise<string[]> {
  const files = await listMigrations(dir);
  const applied: string[] = [];
  await database.withSession(async (session) => {
    const pending = await notApplied(session, files);
    if (pending.length === 0) return;
    const lock = `SELECT pg_advisory_xact_lock(${LOCK_KEY})`;
    /** Runs `fn` in a transaction that holds the migration lock; rolls back when it fails. */
    const locked = async (fn: () => Promise<void>) => {
      await session.exec(`BEGIN; ${lock}`);
      try {
        await fn();
        await session.exec('COMMIT');
      } catch (err) {
        await session.exec('ROLLBACK').catch(() => undefined);
        throw err;
      }
    };
    await locked(() =>
      session.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`),
    );
    for (const file of pending) {
      const name = `'${file.replace(/'/g, "''")}'`;
      const body = await readFile(join(dir, file), 'utf8');
      await locked(async () => {
        const [row] = await session.query<{ done: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE name = ${name}) AS done`,
        );
        if (row?.done) return; // another instance applied it meanwhile
        await session.exec(`${body}\n;INSERT INTO schema_migrations (name) VALUES (${name});`);
        applied.push(file);
      }).catch((err: unknown) => {
        throw new Error(`migration ${file} failed: ${(err as Error).message}`);
      });
    }
  });
  return applied;
}

/**
 * The migration at start. With `ownerUrl` (MIGRATION_DATABASE_URL) it runs on a connection of its own as the
 * schema's owner, closed before the service serves on `database` (DATABASE_URL, the runtime role), which must
 * then see every migration applied; without it, on `database` itself.
 */
export async function migrateAtStart(
  database: Database<PlatformTables>,
  ownerUrl: string | undefined,
  dir = migrationsDir(),
): Promise<string[]> {
  if (!ownerUrl) return runMigrations(database, dir);
  const owner = await openDatabase<PlatformTables>({ databaseUrl: ownerUrl, dataDir: '', poolMax: 1 });
  let applied: string[];
  try {
    applied = await runMigrations(owner, dir);
  } finally {
    await owner.close();
  }
  const pending = await pendingMigrations(database, dir).catch((err: Error) => [`(${err.message})`]);
  if (pending.length)
    throw new Error(
      `MIGRATION_DATABASE_URL was migrated, but DATABASE_URL still lacks ${pending.join(', ')}: both must name the same database`,
    );
  return applied;
}

/**
 * Names of the migrations on disk that the database has not recorded (readiness); throws on a database made before
 * the baseline (checkRecordedMigrations).
 */
export async function pendingMigrations(database: Database<PlatformTables>, dir = migrationsDir()): Promise<string[]> {
  const files = await listMigrations(dir);
  const rows = await database.db.selectFrom('schema_migrations').select('name').execute();
  const done = new Set(rows.map((r) => r.name));
  checkRecordedMigrations(done, files);
  return files.filter((f) => !done.has(f));
}
