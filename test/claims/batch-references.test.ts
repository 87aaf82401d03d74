import { gzipSync } from 'node:zlib';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/tables.js';
import { createTestDatabase } from '../helpers/app.js';
import { sqlState } from '../helpers/sql-state.js';

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/**
 * A settlement with `payouts` payouts, their ids of the form a run makes (`po-` and the seq, returned in seq order),
 * and a batch cb_1 with leaves 0..leaves-1, written as the owner.
 */
async function seed(db: Kysely<DB>, payouts: number, leaves: number): Promise<string[]> {
  await sql`
    insert into settlements (id, policy_version, pool_base, escrow_base, paid_base, token_decimals, windows_closed_before,
      story_count, contribution_count, payout_count, role_totals, inputs_gzip, created_by, created_at)
    values ('se_1', 1, 10, 0, 10, 6, now(), 1, 1, 1, '{}', ${gzipSync('{}')}, 'tester', now())`.execute(db);
  const { rows } = await sql<{ id: string }>`
    insert into payouts (id, seq, settlement_id, story_id, role, beneficiary_kind, beneficiary_id, weight, amount_base, status, created_at, updated_at)
    select 'po-' || s, s, 'se_1', 'st_1', 'WRITER', 'BOT', 'bot_' || s, 1, 1, 'PAYABLE', now(), now()
    from (select nextval(pg_get_serial_sequence('payouts', 'seq')) s from generate_series(1, ${payouts})) g
    order by s
    returning id`.execute(db);
  await sql`
    insert into claim_batches (id, chain_batch_id, merkle_root, total_base, token_decimals, leaf_count, payout_count, claim_deadline,
      status, finalized_by, created_at, updated_at)
    values ('cb_1', ${hash(1)}, ${hash(2)}, 1, 6, 1, 1, now(), 'ACTIVE', 'tester', now(), now())`.execute(db);
  for (let i = 0; i < leaves; i++) await insertLeaf(db, 'cb_1', i);
  return rows.map((r) => r.id);
}

const insertLeaf = (db: Kysely<DB>, batch: string, index: number) =>
  sql`insert into claim_batch_leaves (batch_id, leaf_index, wallet_address, amount_base, proof)
    values (${batch}, ${index}, ${`0x${index.toString(16).padStart(40, '0')}`}, 1, ${Buffer.alloc(32, index)})`.execute(db);

describe("a batch's references, checked once per statement", () => {
  test('an insert naming a batch, payout or leaf that does not exist fails whole; a good one passes', async () => {
    const shared = await createTestDatabase();
    const db = shared.owner.db;
    try {
      const [p1, p2, p3, p4] = await seed(db, 4, 2);
      assert.equal(await sqlState(() => insertLeaf(db, 'cb_missing', 0)), '23503');
      const carry = (rows: [string, string, number][]) =>
        sql`insert into claim_batch_payouts (payout_id, batch_id, leaf_index, recipient_id)
          select p, b, l, 'rcp_1' from unnest(${rows.map((r) => r[0])}::text[], ${rows.map((r) => r[1])}::text[], ${rows.map((r) => r[2])}::int[]) as t(p, b, l)`.execute(
          db,
        );
      // one bad row among good ones: nothing of the statement stays
      assert.equal(
        await sqlState(() =>
          carry([
            [p1!, 'cb_1', 0],
            ['po_missing', 'cb_1', 1],
          ]),
        ),
        '23503',
      );
      assert.equal(
        await sqlState(() =>
          carry([
            [p1!, 'cb_1', 0],
            [p2!, 'cb_1', 7],
          ]),
        ),
        '23503',
        'a leaf the batch does not have',
      );
      assert.equal(await sqlState(() => carry([[p1!, 'cb_other', 0]])), '23503', 'a batch that does not exist');
      // an id no payout has: a seq with no payout, a seq written another way, an id of another form
      for (const missing of ['po-999999', `po-0${p1!.slice(3)}`, `po-+${p1!.slice(3)}`, `po_${p1!.slice(3)}`, p1!.toUpperCase()]) {
        assert.equal(await sqlState(() => carry([[missing, 'cb_1', 0]])), '23503', missing);
      }
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from claim_batch_payouts`.execute(db);
      assert.equal(rows[0]!.n, 0);
      assert.equal(
        await sqlState(() =>
          carry([
            [p1!, 'cb_1', 0],
            [p2!, 'cb_1', 1],
            [p3!, 'cb_1', 0],
            [p4!, 'cb_1', 1],
          ]),
        ),
        'ok',
      );
      assert.equal(await sqlState(() => carry([[p1!, 'cb_1', 1]])), '23505', 'a payout is in one batch only');
    } finally {
      await shared.drop();
    }
  });

  test('what a batch references is kept, and its rows stay on what they reference', async () => {
    const shared = await createTestDatabase();
    const db = shared.owner.db;
    try {
      const [p1, p2, p3, p4] = await seed(db, 4, 2);
      await sql`insert into claim_batch_payouts (payout_id, batch_id, leaf_index, recipient_id) values (${p1}, 'cb_1', 0, 'rcp_1')`.execute(
        db,
      );
      assert.equal(await sqlState(() => sql`delete from payouts where id = ${p1}`.execute(db)), '23503');
      // a new seq and its id: a good payout row, refused only because the batch carries the payout
      const move = (id: string) => sql`update payouts set seq = seq + 1000, id = payout_id_of(seq + 1000) where id = ${id}`.execute(db);
      assert.equal(await sqlState(() => move(p1!)), '23503');
      assert.equal(await sqlState(() => sql`delete from claim_batch_leaves where leaf_index = 0`.execute(db)), '23503');
      assert.equal(await sqlState(() => sql`update claim_batch_leaves set leaf_index = 9 where leaf_index = 0`.execute(db)), '23503');
      assert.equal(await sqlState(() => sql`delete from claim_batches where id = 'cb_1'`.execute(db)), '23503');
      assert.equal(await sqlState(() => sql`update claim_batch_payouts set payout_id = ${p2}`.execute(db)), '23503');
      assert.equal(await sqlState(() => sql`update claim_batch_payouts set leaf_index = 1`.execute(db)), '23503');
      // what nothing references goes, and the rest of a referenced row may change
      assert.equal(await sqlState(() => sql`update payouts set status = 'FROZEN', id = id where id = ${p1}`.execute(db)), 'ok');
      assert.equal(await sqlState(() => sql`delete from payouts where id = ${p3}`.execute(db)), 'ok');
      assert.equal(await sqlState(() => move(p4!)), 'ok');
      assert.equal(await sqlState(() => sql`delete from claim_batch_leaves where leaf_index = 1`.execute(db)), 'ok');
      assert.equal(await sqlState(() => sql`update claim_batches set status = 'ACTIVE', id = id`.execute(db)), 'ok');
    } finally {
      await shared.drop();
    }
  });
});
