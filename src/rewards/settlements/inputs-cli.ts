import { loadConfig } from '../../config.js';
import { openRuntimeDatabase } from '../../platform/db/database.js';
import { storedInputs } from './published-inputs.js';
import { findSettlement } from './repository.js';

/**
 * `npm run settlement:inputs -- <settlement id>`: the published inputs of a settlement as JSON on stdout (the
 * `inputs` of `GET /v1/rewards/settlements/{id}`), read from DATABASE_URL (or the embedded database of DATA_DIR).
 * They are stored packed and compressed (published-inputs.ts), so a gzip tool alone does not show them.
 */
async function main(): Promise<void> {
  const id = process.argv[2];
  if (!id || process.argv.length > 3) throw new Error('usage: npm run settlement:inputs -- <settlement id>');
  const database = await openRuntimeDatabase(loadConfig(), 1);
  try {
    const row = await findSettlement(database.db, id);
    if (!row) throw new Error(`no settlement ${id}`);
    process.stdout.write(`${JSON.stringify(await storedInputs(row))}\n`);
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
