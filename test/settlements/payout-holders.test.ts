import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { payoutsOfPerson } from '../../src/rewards/payout-scope-repository.js';
import { createTestDatabase } from '../helpers/app.js';
import { insertSettlementRow } from './support.js';

/**
 * A person's payouts are found through the payout_holders rows their run wrote (by bot and by linked human, as the
 * payouts were then); a payout that moves to another person afterwards is found under its new person only, and a
 * run that wrote payouts of a person without that person's rows cannot complete.
 */
test("a person's payouts through payout_holders, a later move follows the payout, and a run without its rows is refused", async () => {
  const shared = await createTestDatabase();
  const db = shared.owner.db;
  try {
    await insertSettlementRow(db, 'se_a', { payoutCount: 3, seqs: [1, 3] });
    await insertSettlementRow(db, 'se_b', { payoutCount: 3, seqs: [4, 6] });
    // bot_x earns in both runs (owned by h_ann), bot_y in the first (no owner), a flag of h_ann's in the second
    await sql`
      insert into payouts (id, seq, settlement_id, story_id, role, beneficiary_kind, beneficiary_id, bot_id, linked_human_id, weight,
        amount_base, status, created_at, updated_at)
      values ('po-1', 1, 'se_a', 'st_1', 'WRITER', 'BOT', 'bot_x', 'bot_x', 'h_ann', 1, 1, 'PAYABLE', now(), now()),
        ('po-2', 2, 'se_a', 'st_1', 'FACT_CHECK', 'BOT', 'bot_y', 'bot_y', null, 1, 1, 'PENDING_RECIPIENT', now(), now()),
        ('po-3', 3, 'se_a', 'st_1', 'FACT_CHECK', 'BOT', 'bot_x', 'bot_x', 'h_ann', 1, 1, 'PAYABLE', now(), now()),
        ('po-4', 4, 'se_b', 'st_2', 'WRITER', 'BOT', 'bot_x', 'bot_x', 'h_ann', 1, 1, 'PAYABLE', now(), now()),
        ('po-5', 5, 'se_b', 'st_2', 'RISK', 'HUMAN', 'h_ann', null, 'h_ann', 1, 1, 'PAYABLE', now(), now()),
        ('po-6', 6, 'se_b', 'st_2', 'FACT_CHECK', 'BOT', 'bot_y', 'bot_y', null, 1, 1, 'PENDING_RECIPIENT', now(), now())`.execute(db);
    // what the two runs wrote for the persons of their payouts
    await sql`
      insert into payout_holders (holder_kind, holder_id, settlement_id, seqs)
      values ('BOT', 'bot_x', 'se_a', '{1,3}'), ('BOT', 'bot_x', 'se_b', '{4}'), ('BOT', 'bot_y', 'se_a', '{2}'),
        ('BOT', 'bot_y', 'se_b', '{6}'), ('HUMAN', 'h_ann', 'se_a', '{1,3}'), ('HUMAN', 'h_ann', 'se_b', '{4,5}')`.execute(db);
    const of = async (kind: 'BOT' | 'HUMAN', id: string) =>
      (await db.selectFrom('payouts').select('id').where(payoutsOfPerson(kind, id)).orderBy('seq').execute()).map((p) => p.id);
    assert.deepEqual(await of('BOT', 'bot_x'), ['po-1', 'po-3', 'po-4']);
    assert.deepEqual(await of('BOT', 'bot_y'), ['po-2', 'po-6']);
    assert.deepEqual(await of('HUMAN', 'h_ann'), ['po-1', 'po-3', 'po-4', 'po-5']);

    // bot_y's payouts go to h_bob, and one of h_ann's to h_bob as well: each is found under h_bob only
    await sql`update payouts set linked_human_id = 'h_bob' where id in ('po-2', 'po-6', 'po-3')`.execute(db);
    assert.deepEqual(await of('HUMAN', 'h_bob'), ['po-2', 'po-3', 'po-6']);
    assert.deepEqual(await of('HUMAN', 'h_ann'), ['po-1', 'po-4', 'po-5']);
    assert.deepEqual(await of('BOT', 'bot_y'), ['po-2', 'po-6']);
    // and back: po-3 is h_ann's again, once
    await sql`update payouts set linked_human_id = 'h_ann' where id = 'po-3'`.execute(db);
    assert.deepEqual(await of('HUMAN', 'h_ann'), ['po-1', 'po-3', 'po-4', 'po-5']);
    assert.deepEqual(await of('HUMAN', 'h_bob'), ['po-2', 'po-6']);
    // an update that leaves the person as it is marks nothing
    await sql`update payouts set linked_human_id = linked_human_id, status = status where id = 'po-1'`.execute(db);
    const marked = await db.selectFrom('payouts').select('id').where('reassigned', '=', true).orderBy('seq').execute();
    assert.deepEqual(
      marked.map((p) => p.id),
      ['po-2', 'po-3', 'po-6'],
    );
    // the mark only goes on: an update that clears it keeps it
    await sql`update payouts set reassigned = false where id = 'po-2'`.execute(db);
    assert.deepEqual(await of('HUMAN', 'h_bob'), ['po-2', 'po-6']);

    // a run that writes payouts of a bot without their persons' rows cannot complete; one whose payouts have no
    // bot and no linked human (an unbound flagger's) has no rows to write and completes
    await insertSettlementRow(db, 'se_c', { payoutCount: 0, seqs: [7, 7] });
    await insertSettlementRow(db, 'se_d', { payoutCount: 0, seqs: [8, 8] });
    await sql`
      insert into payouts (id, seq, settlement_id, story_id, role, beneficiary_kind, beneficiary_id, bot_id, linked_human_id, weight,
        amount_base, status, created_at, updated_at)
      values ('po-7', 7, 'se_c', 'st_3', 'WRITER', 'BOT', 'bot_x', 'bot_x', null, 1, 1, 'PENDING_RECIPIENT', now(), now()),
        ('po-8', 8, 'se_d', 'st_4', 'RISK', 'HUMAN', 'actor_1', null, null, 1, 1, 'PENDING_RECIPIENT', now(), now())`.execute(db);
    await assert.rejects(sql`update settlements set payout_count = 1 where id = 'se_c'`.execute(db), /without their payout_holders rows/);
    await sql`update settlements set payout_count = 1 where id = 'se_d'`.execute(db);
    await sql`insert into payout_holders (holder_kind, holder_id, settlement_id, seqs) values ('BOT', 'bot_x', 'se_c', '{7}')`.execute(db);
    await sql`update settlements set payout_count = 1 where id = 'se_c'`.execute(db);
  } finally {
    await shared.drop();
  }
});
