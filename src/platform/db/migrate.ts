import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.js';

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
 * Applies every migration not yet recorded in schema_migrations, each in its own transaction, under a
 * session advisory lock so that several instances starting together apply each migration once.
 * Returns the names applied by this call.
 */
export async function runMigrations(database: Database, dir = migrationsDir()): Promise<string[]> {
  const files = await listMigrations(dir);
  const applied: string[] = [];
  await database.withSession(async (session) => {
    const run = (script: string) => session.exec(script);
    await run(`SELECT pg_advisory_lock(${LOCK_KEY})`);
    try {
      await run(`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      const done = new Set((await session.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
      for (const file of files) {
        if (done.has(file)) continue;
        const body = await readFile(join(dir, file), 'utf8');
        await run(`BEGIN;\n${body}\n;INSERT INTO schema_migrations (name) VALUES ('${file.replace(/'/g, "''")}');\nCOMMIT;`).catch(
          async (err: unknown) => {
            await run('ROLLBACK').catch(() => undefined);
            throw new Error(`migration ${file} failed: ${(err as Error).message}`);
          },
        );
        applied.push(file);
      }
    } finally {
      await run(`SELECT pg_advisory_unlock(${LOCK_KEY})`);
    }
  });
  return applied;
}

/** Names of the migrations on disk that the database has not recorded (readiness). */
export async function pendingMigrations(database: Database, dir = migrationsDir()): Promise<string[]> {
  const files = await listMigrations(dir);
  const rows = await database.db.selectFrom('schema_migrations').select('name').execute();
  const done = new Set(rows.map((r) => r.name));
  return files.filter((f) => !done.has(f));
}
