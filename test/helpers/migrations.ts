import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../../src/platform/db/database.js';
import { listMigrations, migrationsDir, runMigrations } from '../../src/platform/db/migrate.js';

/**
 * A migration's test on data written before it: runs the migrations before `first` on `owner` (an empty
 * database; migrations run as the owner), then `seed`, then the rest, and checks the rest were exactly those
 * from `first` on.
 */
export async function migrateAcross(owner: Database, first: string, seed: () => Promise<void>): Promise<void> {
  const before = mkdtempSync(join(tmpdir(), `migrations-before-${first}-`));
  try {
    const all = await listMigrations();
    for (const file of all.filter((f) => f < first)) cpSync(join(migrationsDir(), file), join(before, file));
    await runMigrations(owner, before);
    await seed();
    assert.deepEqual(
      await runMigrations(owner),
      all.filter((f) => f >= first),
    );
  } finally {
    rmSync(before, { recursive: true, force: true });
  }
}
