import { parseArgs } from 'node:util';
import { retentionSteps } from './composition.js';
import { ConfigError, loadConfig } from './config.js';
import { systemClock } from './platform/clock.js';
import { openRuntimeDatabase } from './platform/db/database.js';
import { createTransactor } from './platform/db/transaction.js';
import { createRetentionService, RETENTION_DEFAULTS } from './operations/retention/service.js';
import type { DB } from './tables.js';

/**
 * `npm run retention [-- --dry-run] [--batch-size 1000] [--pause-ms 0]`: deletes, in small batches, the rows the
 * retention plan of docs/scaling.md lets go: expired idempotency records, webhook
 * deliveries that ended over WEBHOOK_RETENTION_DAYS ago with their attempts, the events none of whose deliveries
 * remain, ended site sessions and expired login challenges. Audit, ledger, money, reviews, comments, flags and
 * votes are never touched. Connects to DATABASE_URL as the runtime role (or opens the embedded database), while
 * the service runs. Prints, per table, the rows deleted (or, with --dry-run, that would be), batches and seconds.
 */
/** Operator output goes to stdout (the lint keeps console for warnings and errors). */
const print = (line: string) => void process.stdout.write(`${line}\n`);

function integer(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new Error(`--${name} must be an integer from ${min} to ${max}`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'dry-run': { type: 'boolean', default: false },
      'batch-size': { type: 'string', default: String(RETENTION_DEFAULTS.batchSize) },
      'pause-ms': { type: 'string', default: String(RETENTION_DEFAULTS.pauseMs) },
    },
  });
  const options = {
    dryRun: values['dry-run'],
    batchSize: integer('batch-size', values['batch-size'], 1, 10_000),
    pauseMs: integer('pause-ms', values['pause-ms'], 0, 60_000),
  };
  const config = loadConfig();
  const database = await openRuntimeDatabase<DB>(config, 2);
  try {
    const service = createRetentionService({ transactor: createTransactor(database.db, []) });
    const steps = retentionSteps(new Date(systemClock.now()), config);
    print(
      options.dryRun
        ? 'retention, dry run: what would be deleted now (nothing is)'
        : `retention: batches of ${options.batchSize}, ${options.pauseMs} ms apart`,
    );
    const reports = await service.run(steps, options);
    const width = Math.max(...reports.flatMap((r) => Object.keys(r.rows).map((t) => t.length)));
    print(`${'table'.padEnd(width)}  ${options.dryRun ? 'would delete' : 'deleted'.padStart(9)}  batches  seconds  longest batch`);
    for (const report of reports) {
      print(`# ${report.label}`);
      for (const [table, rows] of Object.entries(report.rows))
        print(
          `${table.padEnd(width)}  ${String(rows).padStart(options.dryRun ? 12 : 9)}  ${String(report.batches).padStart(7)}  ` +
            `${report.seconds.toFixed(1).padStart(7)}  ${options.dryRun ? '-' : `${report.longestBatchMs.toFixed(0)} ms`}`,
        );
    }
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err instanceof Error ? err.message : err);
  process.exit(err instanceof ConfigError ? 78 : 1);
});
