import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/platform/db/schema.js';
import { createTestDatabase } from '../helpers/app.js';
import { insertSettlementRow } from './support.js';

/**
 * payout_holders rows name their settlement, checked once per statement (migrations/0029) with what a foreign key
 * gave: an insert naming a settlement that does not exist fails whole, a row stays in its settlement, and a
 * settlement that has rows is neither deleted nor renamed.
 */

const hold = (db: Kysely<DB>, rows: [string, string][]) =>
  sql`insert into payout_holders (holder_kind, holder_id, settlement_id, seqs)
    select 'BOT', h, s, '{1}' from unnest(${rows.map((r) => r[0])}::text[], ${rows.map((r) => r[1])}::text[]) as t(h, s)`.execute(db);

/** The SQLSTATE a statement fails with, or 'ok'. */
async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'ok';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}

test('payout_holders rows name an existing settlement and keep it, checked once per statement', async () => {
  const shared = await createTestDatabase();
  const db = shared.owner.db;
  try {
    await insertSettlementRow(db, 'se_1');
    await insertSettlementRow(db, 'se_2');
    // one row naming a settlement that does not exist, among good ones: nothing of the statement stays
    assert.equal(
      await outcome(() =>
        hold(db, [
          ['bot_a', 'se_1'],
          ['bot_b', 'se_missing'],
        ]),
      ),
      '23503',
    );
    const count = async () => (await sql<{ n: number }>`select count(*)::int as n from payout_holders`.execute(db)).rows[0]!.n;
    assert.equal(await count(), 0);
    assert.equal(
      await outcome(() =>
        hold(db, [
          ['bot_a', 'se_1'],
          ['bot_b', 'se_1'],
        ]),
      ),
      'ok',
    );
    assert.equal(await count(), 2);

    // a row stays in its settlement; its seqs may change
    assert.equal(await outcome(() => sql`update payout_holders set settlement_id = 'se_2' where holder_id = 'bot_a'`.execute(db)), '23503');
    assert.equal(await outcome(() => sql`update payout_holders set seqs = '{1,2}', settlement_id = settlement_id`.execute(db)), 'ok');

    // a settlement that has rows stays, under its id; one that has none goes
    assert.equal(await outcome(() => sql`delete from settlements where id = 'se_1'`.execute(db)), '23503');
    assert.equal(await outcome(() => sql`update settlements set id = 'se_x' where id = 'se_1'`.execute(db)), '23503');
    assert.equal(await outcome(() => sql`delete from settlements where id = 'se_2'`.execute(db)), 'ok');
  } finally {
    await shared.drop();
  }
});
