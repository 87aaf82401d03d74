import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { payoutById } from '../../src/rewards/settlements/payout-scope.js';
import { createEmptyDatabase } from '../helpers/app.js';
import { migrateAcross } from '../helpers/migrations.js';
import { sqlState } from '../helpers/sql-state.js';
import { insertSettlementRow } from './support.js';

const insertPayout = (id: string, seq: number | null) => sql`
  insert into payouts (id, seq, settlement_id, story_id, role, beneficiary_kind, beneficiary_id, weight, amount_base, status,
    created_at, updated_at)
  values (${id}, coalesce(${seq}::bigint, nextval(pg_get_serial_sequence('payouts', 'seq'))), 'se_a', 'st_1', 'WRITER', 'BOT',
    'bot_x', 1, 1, 'PAYABLE', now(), now())`;

/**
 * Migration 0031 on a database that holds payouts with ids of the old form (`po_`, a random part, a counter): they
 * keep their ids and are found by them; the ids of the new form (`po-` and the seq) are found by their seq; no id
 * can be given twice, across the two forms, and an id of the new form must name its own seq.
 */
test('0031 keeps the ids made before it, finds both forms by id, and lets no id be given twice', async () => {
  const shared = await createEmptyDatabase();
  const db = shared.owner.db;
  try {
    await migrateAcross(shared.owner, '0031', async () => {
      await insertSettlementRow(db, 'se_a', { payoutCount: 2 });
      await insertPayout('po_k3Jx9QmT2vLp0000', 1001).execute(db);
      await insertPayout('po_k3Jx9QmT2vLp0001', 1002).execute(db);
    });
    await insertPayout('po-2001', 2001).execute(db);
    const found = async (id: string) =>
      (await db.selectFrom('payouts').select(['id', 'seq']).where(payoutById(id)).execute()).map((p) => `${p.id}@${p.seq}`);
    assert.deepEqual(await found('po_k3Jx9QmT2vLp0001'), ['po_k3Jx9QmT2vLp0001@1002']);
    assert.deepEqual(await found('po-2001'), ['po-2001@2001']);
    for (const missing of ['po-1002', 'po-02001', 'po-0', 'po_k3Jx9QmT2vLp0002', '']) assert.deepEqual(await found(missing), [], missing);

    assert.equal(await sqlState(() => insertPayout('po_k3Jx9QmT2vLp0001', 1003).execute(db)), '23505', 'an old id twice');
    assert.equal(await sqlState(() => insertPayout('po-2001', 2002).execute(db)), '23514', 'a new id naming another seq');
    assert.equal(await sqlState(() => insertPayout('po-2001', 2001).execute(db)), '23505', 'a seq twice');
    assert.equal(await sqlState(() => insertPayout('po_anything', 2001).execute(db)), '23505', 'a seq twice, whatever the id');
    assert.equal(await sqlState(() => insertPayout('po_k3Jx9QmT2vLp0002', null).execute(db)), 'ok', 'an id of the old form still');
  } finally {
    await shared.drop();
  }
});
