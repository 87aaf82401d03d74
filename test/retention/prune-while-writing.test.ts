import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRetentionService } from '../../src/operations/retention/service.js';
import { createTransactor } from '../../src/platform/db/transaction.js';
import { createIdempotencyStore, expiredIdempotencyRecords } from '../../src/platform/idempotency-repository.js';
import { createTestDatabase } from '../helpers/app.js';
import { needsPostgres } from '../helpers/needs.js';
import { seedIdempotency } from './support.js';

/**
 * The command runs next to the service: its batches are short transactions that skip what a write holds, so an
 * idempotent write (the service's own code, on its own connection) goes through while the prune is under way,
 * also when it reuses an expired key the prune is about to delete, and a reused key keeps its new record.
 */
test(
  'idempotent writes, new keys and reused expired ones, are answered between the batches of a prune and their records kept',
  { skip: needsPostgres('two connections at once'), timeout: 60_000 },
  async () => {
    const t = await createTestDatabase();
    try {
      const db = t.database.db;
      const now = Date.now();
      const EXPIRED = 3_000;
      await seedIdempotency(db, now, 'POST /v1/candidates', EXPIRED, 5);
      const store = createIdempotencyStore(db, () => Date.now());
      const service = createRetentionService({ transactor: createTransactor(db, []) });

      let batches = 0;
      let finished = false;
      /** Writes answered after the prune's first batch committed and before its last one did. */
      let duringPrune = 0;
      const reused: string[] = [];
      const writes = (async () => {
        for (let i = 0; !finished; i++) {
          // every other write reuses an expired key, the oldest first: the ones the prune deletes first, so a write
          // lands on a key a batch holds or has just deleted (a batch holds its rows until its own commit only)
          const key = i % 2 === 0 ? `expired-${EXPIRED - 1 - i}` : `new-${i}`;
          const outcome = await store.begin('POST /v1/candidates', key, `hash-${i}`);
          assert.equal(outcome.kind, 'proceed', `${key}: a new write, not a replay of the expired answer`);
          await store.complete('POST /v1/candidates', key, 202, { i });
          if (key.startsWith('expired-')) reused.push(key);
          if (batches > 0 && !finished) duringPrune += 1;
        }
      })();
      const [report] = await service.run([expiredIdempotencyRecords(new Date(now))], { dryRun: false, batchSize: 50, pauseMs: 2 }, () => {
        batches += 1;
      });
      finished = true;
      await writes;

      assert.ok(report!.batches >= 20, `the prune ran in batches (${report!.batches})`);
      assert.ok(duringPrune >= 20, `writes were answered while the prune ran (${duringPrune})`);
      // a reused key's expired record went either way: the write replaced it, or the prune deleted it first
      const pruned = report!.rows.idempotency_records!;
      assert.ok(pruned >= EXPIRED - reused.length && pruned <= EXPIRED, `${pruned} pruned, ${reused.length} reused`);
      const rows = await db.selectFrom('idempotency_records').select(['key', 'status_code', 'expires_at']).execute();
      const kept = new Map(rows.map((r) => [r.key, r]));
      for (const key of reused) {
        assert.equal(kept.get(key)?.status_code, 202, `${key}: the reused key keeps its new, completed record`);
        assert.ok(kept.get(key)!.expires_at.getTime() > now, `${key}: with a new expiry`);
      }
      assert.equal(rows.filter((r) => r.key.startsWith('expired-')).length, reused.length, 'no expired record is left');
      assert.equal(rows.filter((r) => r.key.startsWith('live-')).length, 5, 'live records are kept');
    } finally {
      await t.drop();
    }
  },
);
