import { loadConfig } from '../../config.js';
import { DatabaseRefusedError, openDatabase } from './database.js';
import type { PlatformTables } from '../tables.js';
import { runMigrations } from './migrate.js';

/**
 * `npm run migrate`: applies pending migrations as the schema's owner (MIGRATION_DATABASE_URL, else
 * DATABASE_URL, else the embedded database) and exits.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase<PlatformTables>({
    databaseUrl: config.migrationDatabaseUrl ?? config.databaseUrl,
    dataDir: config.dataDir,
    poolMax: 2,
  });
  try {
    const applied = await runMigrations(database);
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'no pending migrations\n');
  } finally {
    await database.close();
  }
}

await main().catch((err: unknown) => {
  if (!(err instanceof DatabaseRefusedError)) throw err;
  console.error(`refused: ${err.message}`);
  process.exitCode = 1;
});
