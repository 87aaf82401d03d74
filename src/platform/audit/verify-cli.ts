import { loadConfig } from '../../config.js';
import { openRuntimeDatabase } from '../db/database.js';
import type { PlatformTables } from '../tables.js';
import { verifyAuditChain, type ChainVerdict } from './verify-chain.js';

/**
 * `npm run audit:verify`: walks the audit chain of DATABASE_URL (or the embedded database) and prints the
 * verdict; exits 1 when a link is broken, naming the first broken row.
 */
const config = loadConfig();
const database = await openRuntimeDatabase<PlatformTables>(config, 2);
let verdict: ChainVerdict;
try {
  verdict = await verifyAuditChain(database.db);
} finally {
  await database.close();
}
// the exit code is set after closing: the embedded database resets process.exitCode when it shuts down
if (verdict.ok) {
  process.stdout.write(`audit chain intact: ${verdict.events} events, head ${verdict.headHash}\n`);
} else {
  process.stdout.write(
    `audit chain broken at seq ${verdict.broken.seq} (id ${verdict.broken.id}): ${verdict.broken.reason}; ${verdict.events} events before it verify\n`,
  );
  process.exitCode = 1;
}
