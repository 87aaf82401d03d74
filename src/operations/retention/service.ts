import { setTimeout as sleep } from 'node:timers/promises';
import type { RetentionStep, RowCounts } from '../../platform/db/retention.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';

export interface RetentionOptions {
  /** Count what would go; delete nothing. */
  dryRun: boolean;
  /** Rows of a step's table per batch (per transaction). */
  batchSize: number;
  /** Wait between two batches, so that the service's own writes, autovacuum and replicas keep up. */
  pauseMs: number;
}

/** What one step removed (or, in a dry run, would remove). */
export interface StepReport {
  label: string;
  /** Rows per table, in the order the step removes them. */
  rows: RowCounts;
  batches: number;
  seconds: number;
  /** The longest batch, its transaction from BEGIN to COMMIT: the longest any of its row locks was held. */
  longestBatchMs: number;
}

export const RETENTION_DEFAULTS = { batchSize: 1_000, pauseMs: 0 } as const;

/**
 * The retention command's runner (`npm run retention`): runs the
 * steps in the order given, each to its end before the next, a batch at a time, each batch a transaction of its
 * own. A batch locks only the rows it deletes and skips any the service holds, so the service's writes never
 * wait for more than one batch; stopping the command between two batches (or during one: its transaction rolls
 * back) leaves nothing half done. `onBatch` hears each committed batch.
 */
export function createRetentionService<T>(deps: { transactor: Transactor<T> }) {
  const { transactor } = deps;
  return {
    async run(
      steps: readonly RetentionStep<T>[],
      options: RetentionOptions,
      onBatch?: (step: RetentionStep<T>, removed: RowCounts) => void | Promise<void>,
    ): Promise<StepReport[]> {
      const reports: StepReport[] = [];
      let first = true;
      for (const step of steps) {
        const started = performance.now();
        const rows: RowCounts = Object.fromEntries(step.tables.map((t) => [t, 0]));
        let batches = 0;
        let longestBatchMs = 0;
        if (options.dryRun) {
          Object.assign(rows, await step.count(transactor.db));
        } else {
          for (let done = false; !done;) {
            if (!first && options.pauseMs > 0) await sleep(options.pauseMs);
            first = false;
            const batchStarted = performance.now();
            const batch = await withTransaction(transactor, (tx) => step.removeBatch(tx, options.batchSize));
            longestBatchMs = Math.max(longestBatchMs, performance.now() - batchStarted);
            batches += 1;
            for (const [table, n] of Object.entries(batch.removed)) rows[table] = (rows[table] ?? 0) + n;
            done = batch.done;
            await onBatch?.(step, batch.removed);
          }
        }
        reports.push({ label: step.label, rows, batches, seconds: (performance.now() - started) / 1000, longestBatchMs });
      }
      return reports;
    },
  };
}
