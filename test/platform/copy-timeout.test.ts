import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { BinaryRows, copyRows } from '../../src/platform/db/bulk/copy-in.js';
import { openDatabase, type Queryable } from '../../src/platform/db/database.js';
import { createTestDatabase } from '../helpers/app.js';
import { needsPostgres } from '../helpers/needs.js';
import type { DB } from '../../src/tables.js';

/** A COPY's time limit on node-postgres: its own, longer than the pool's statement limit, and still a limit. */

const skip = needsPostgres('the statement limits are node-postgres’ (PGlite runs in the process)');

/** Chunks of one row each, produced `gapMs` apart: a COPY that lasts about `count × gapMs`. */
async function* slowRows(count: number, gapMs: number) {
  for (let i = 0; i < count; i++) {
    await sleep(gapMs);
    yield new BinaryRows(16).row(1).int8(BigInt(i)).finish();
  }
}

/** Yields one row, then nothing for longer than any limit the tests set. */
async function* stalledRows() {
  yield new BinaryRows(16).row(1).int8(1n).finish();
  await sleep(20_000, undefined, { ref: false });
}

const countRows = async (db: Queryable<DB>) =>
  (await sql<{ n: string }>`select count(*)::int8 as n from copy_timeout_probe`.execute(db)).rows[0]!.n;

describe('COPY time limit (node-postgres)', () => {
  test('a COPY outlasting the pool statement limit completes, where a plain statement as long is cut', { skip }, async () => {
    const shared = await createTestDatabase();
    const limited = await openDatabase<DB>({ databaseUrl: shared.ownerUrl!, dataDir: '', poolMax: 1, queryTimeoutMs: 300 });
    try {
      await sql`create table copy_timeout_probe (i bigint)`.execute(shared.owner.db);
      await assert.rejects(sql`select pg_sleep(0.8)`.execute(limited.db), /Query read timeout/);
      // four rows 250 ms apart: about 1 s, more than three times the pool's limit
      await copyRows(limited.db, 'copy_timeout_probe', ['i'], slowRows(4, 250));
      assert.equal(await countRows(shared.owner.db), '4');
    } finally {
      await limited.close();
      await shared.drop();
    }
  });

  test('a COPY whose rows stop coming is cut at its own limit, and nothing of it is kept', { skip }, async () => {
    const shared = await createTestDatabase();
    const limited = await openDatabase<DB>({ databaseUrl: shared.ownerUrl!, dataDir: '', poolMax: 1, copyTimeoutMs: 400 });
    try {
      await sql`create table copy_timeout_probe (i bigint)`.execute(shared.owner.db);
      const started = Date.now();
      await assert.rejects(copyRows(limited.db, 'copy_timeout_probe', ['i'], stalledRows()), /Query read timeout/);
      assert.ok(Date.now() - started < 10_000, 'cut near its limit');
      assert.equal(await countRows(shared.owner.db), '0');
    } finally {
      await limited.close();
      await shared.drop();
    }
  });
});
