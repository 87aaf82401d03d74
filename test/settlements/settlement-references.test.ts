import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/tables.js';
import { createTestDatabase } from '../helpers/app.js';
import { insertSettlementRow, insertStoryRows } from './support.js';
import { sqlState } from '../helpers/sql-state.js';

/**
 * A settlement run's settled_stories and payout_holders rows name their story and settlement, checked once per
 * statement (migrations/0006_rewards.sql) with what a foreign key gave: an insert naming a story or settlement that
 * does not exist fails whole, a row keeps what it names, and a story or settlement that rows name is neither
 * deleted nor renamed.
 */

const rowCount = async (db: Kysely<DB>, table: 'payout_holders' | 'settled_stories') =>
  (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db)).rows[0]!.n;

const hold = (db: Kysely<DB>, rows: [string, string][]) =>
  sql`insert into payout_holders (holder_kind, holder_id, settlement_id, seqs)
    select 'BOT', h, s, '{1}' from unnest(${rows.map((r) => r[0])}::text[], ${rows.map((r) => r[1])}::text[]) as t(h, s)`.execute(db);

test('payout_holders rows name an existing settlement and keep it, checked once per statement', async () => {
  const shared = await createTestDatabase();
  const db = shared.owner.db;
  try {
    await insertSettlementRow(db, 'se_1');
    await insertSettlementRow(db, 'se_2');
    // one row naming a settlement that does not exist, among good ones: nothing of the statement stays
    assert.equal(
      await sqlState(() =>
        hold(db, [
          ['bot_a', 'se_1'],
          ['bot_b', 'se_missing'],
        ]),
      ),
      '23503',
    );
    const count = () => rowCount(db, 'payout_holders');
    assert.equal(await count(), 0);
    assert.equal(
      await sqlState(() =>
        hold(db, [
          ['bot_a', 'se_1'],
          ['bot_b', 'se_1'],
        ]),
      ),
      'ok',
    );
    assert.equal(await count(), 2);

    // a row stays in its settlement; its seqs may change
    assert.equal(
      await sqlState(() => sql`update payout_holders set settlement_id = 'se_2' where holder_id = 'bot_a'`.execute(db)),
      '23503',
    );
    assert.equal(await sqlState(() => sql`update payout_holders set seqs = '{1,2}', settlement_id = settlement_id`.execute(db)), 'ok');

    // a settlement that has rows stays, under its id; one that has none goes
    assert.equal(await sqlState(() => sql`delete from settlements where id = 'se_1'`.execute(db)), '23503');
    assert.equal(await sqlState(() => sql`update settlements set id = 'se_x' where id = 'se_1'`.execute(db)), '23503');
    assert.equal(await sqlState(() => sql`delete from settlements where id = 'se_2'`.execute(db)), 'ok');
  } finally {
    await shared.drop();
  }
});

const settle = (db: Kysely<DB>, rows: [string, string][]) =>
  sql`insert into settled_stories (story_id, settlement_id)
    select st, se from unnest(${rows.map((r) => r[0])}::text[], ${rows.map((r) => r[1])}::text[]) as t(st, se)`.execute(db);

test('settled_stories rows name an existing story and settlement and keep them, checked once per statement', async () => {
  const shared = await createTestDatabase();
  const db = shared.owner.db;
  try {
    await insertStoryRows(db, 3);
    await insertSettlementRow(db, 'se_1');
    await insertSettlementRow(db, 'se_2');
    const count = () => rowCount(db, 'settled_stories');
    // one row naming a story or a settlement that does not exist, among good ones: nothing of the statement stays
    for (const bad of [
      ['st_missing', 'se_1'],
      ['st_2', 'se_missing'],
    ] as [string, string][]) {
      assert.equal(await sqlState(() => settle(db, [['st_1', 'se_1'], bad])), '23503', bad.join(' '));
    }
    assert.equal(await count(), 0);
    assert.equal(
      await sqlState(() =>
        settle(db, [
          ['st_1', 'se_1'],
          ['st_2', 'se_1'],
        ]),
      ),
      'ok',
    );
    assert.equal(await sqlState(() => settle(db, [['st_1', 'se_2']])), '23505', 'a story is settled once');

    // a row keeps its story and settlement; its seq block may change
    assert.equal(await sqlState(() => sql`update settled_stories set story_id = 'st_3' where story_id = 'st_1'`.execute(db)), '23503');
    assert.equal(await sqlState(() => sql`update settled_stories set settlement_id = 'se_2' where story_id = 'st_1'`.execute(db)), '23503');
    assert.equal(
      await sqlState(() =>
        sql`update settled_stories set payout_seq_first = null, payout_seq_last = null, story_id = story_id`.execute(db),
      ),
      'ok',
    );

    // a settled story and its settlement stay, under their ids; a story that is not settled may go
    assert.equal(await sqlState(() => sql`delete from stories where id = 'st_1'`.execute(db)), '23503');
    assert.equal(await sqlState(() => sql`update stories set id = 'st_x' where id = 'st_1'`.execute(db)), '23503');
    assert.equal(await sqlState(() => sql`update stories set title = 'Renamed', id = id where id = 'st_1'`.execute(db)), 'ok');
    assert.equal(await sqlState(() => sql`delete from settlements where id = 'se_1'`.execute(db)), '23503');
    assert.equal(await sqlState(() => sql`delete from stories where id = 'st_3'`.execute(db)), 'ok');
    assert.equal(await sqlState(() => sql`delete from settlements where id = 'se_2'`.execute(db)), 'ok');
  } finally {
    await shared.drop();
  }
});
