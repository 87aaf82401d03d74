import { gzipSync } from 'node:zlib';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/platform/db/schema.js';
import { createTestDatabase } from '../helpers/app.js';
import { sqlState } from '../helpers/sql-state.js';

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/**
 * A settlement with payouts po_1..po_n (ids of another form, which the schema accepts and keeps unique) and two of
 * the form a run makes (`po-` and the seq, returned), and a batch cb_1 with leaves 0..leaves-1, written as the owner.
 */
async function seed(db: Kysely<DB>, payouts: number, leaves: number): Promise<string[]> {
  await sql`
    insert into settlements (id, policy_version, pool_base, escrow_base, paid_base, token_decimals, windows_closed_before,
      story_count, contribution_count, payout_count, role_totals, inputs_gzip, created_by, created_at)
    values ('se_1', 1, 10, 0, 10, 6, now(), 1, 1, 1, '{}', ${gzipSync('{}')}, 'tester', now())`.execute(db);
  await sql`
    insert into payouts (id, settlement_id, story_id, role, beneficiary_kind, beneficiary_id, weight, amount_base, status, created_at, updated_at)
    select 'po_' || n, 'se_1', 'st_1', 'WRITER', 'BOT', 'bot_' || n, 1, 1, 'PAYABLE', now(), now() from generate_series(1, ${payouts}) n`.execute(
    db,
  );
  const { rows } = await sql<{ id: string }>`
    insert into payouts (id, seq, settlement_id, story_id, role, beneficiary_kind, beneficiary_id, weight, amount_base, status, created_at, updated_at)
    select 'po-' || s, s, 'se_1', 'st_1', 'WRITER', 'BOT', 'bot_x', 1, 1, 'PAYABLE', now(), now()
    from (select nextval(pg_get_serial_sequence('payouts', 'seq')) s from generate_series(1, 2)) g
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
      const [fromSeq, otherFromSeq] = await seed(db, 3, 2);
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
            ['po_1', 'cb_1', 0],
            ['po_missing', 'cb_1', 1],
          ]),
        ),
        '23503',
      );
      assert.equal(
        await sqlState(() =>
          carry([
            ['po_1', 'cb_1', 0],
            ['po_2', 'cb_1', 7],
          ]),
        ),
        '23503',
        'a leaf the batch does not have',
      );
      assert.equal(await sqlState(() => carry([['po_1', 'cb_other', 0]])), '23503', 'a batch that does not exist');
      // an id of the new form that no payout has: a seq with no payout, or a seq written another way
      for (const missing of ['po-999999', `po-0${fromSeq!.slice(3)}`]) {
        assert.equal(await sqlState(() => carry([[missing, 'cb_1', 0]])), '23503', missing);
      }
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from claim_batch_payouts`.execute(db);
      assert.equal(rows[0]!.n, 0);
      assert.equal(
        await sqlState(() =>
          carry([
            ['po_1', 'cb_1', 0],
            ['po_2', 'cb_1', 1],
            [fromSeq!, 'cb_1', 0],
            [otherFromSeq!, 'cb_1', 1],
          ]),
        ),
        'ok',
        'payouts of both forms of id',
      );
      assert.equal(await sqlState(() => carry([['po_1', 'cb_1', 1]])), '23505', 'a payout is in one batch only');
    } finally {
      await shared.drop();
    }
  });

  test('what a batch references is kept, and its rows stay on what they reference', async () => {
    const shared = await createTestDatabase();
    const db = shared.owner.db;
    try {
      await seed(db, 3, 2);
      await sql`insert into claim_batch_payouts (payout_id, batch_id, leaf_index, recipient_id) values ('po_1', 'cb_1', 0, 'rcp_1')`.execute(
        db,
      );
      assert.equal(await sqlState(() => sql`delete from payouts where id = 'po_1'`.execute(db)), '23503');
      assert.equal(await sqlState(() => sql`update payouts set id = 'po_x' where id = 'po_1'`.execute(db)), '23503');
      assert.equal(await sqlState(() => sql`delete from claim_batch_leaves where leaf_index = 0`.execute(db)), '23503');
      assert.equal(await sqlState(() => sql`update claim_batch_leaves set leaf_index = 9 where leaf_index = 0`.execute(db)), '23503');
      assert.equal(await sqlState(() => sql`delete from claim_batches where id = 'cb_1'`.execute(db)), '23503');
      assert.equal(await sqlState(() => sql`update claim_batch_payouts set payout_id = 'po_2'`.execute(db)), '23503');
      assert.equal(await sqlState(() => sql`update claim_batch_payouts set leaf_index = 1`.execute(db)), '23503');
      // what nothing references goes, and the rest of a referenced row may change
      assert.equal(await sqlState(() => sql`update payouts set status = 'FROZEN', id = id where id = 'po_1'`.execute(db)), 'ok');
      assert.equal(await sqlState(() => sql`delete from payouts where id = 'po_3'`.execute(db)), 'ok');
      assert.equal(await sqlState(() => sql`delete from claim_batch_leaves where leaf_index = 1`.execute(db)), 'ok');
      assert.equal(await sqlState(() => sql`update claim_batches set status = 'ACTIVE', id = id`.execute(db)), 'ok');
    } finally {
      await shared.drop();
    }
  });
});
