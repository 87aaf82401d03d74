import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { payoutTotals, recentPayouts } from '../../src/rewards/recipients/reads-repository.js';
import { readerPayoutRows as payoutsOf } from '../../src/rewards/payout-scope-repository.js';
import { createTestDatabase } from '../helpers/app.js';
import { insertSettlementRow } from './support.js';

/**
 * A reader's own payouts (the rewards dashboard, the data export): those of their linked human (their bots',
 * their flags since they bound it, and those that became theirs later) and those paid to them as a flagger by
 * actor id before they bound one; never another person's.
 */
test("a reader's payouts: by their linked human and as an unbound flagger by actor id, found through the indexes", async () => {
  const shared = await createTestDatabase();
  const db = shared.owner.db;
  try {
    await insertSettlementRow(db, 'se_r', { payoutCount: 4, seqs: [1, 4] });
    // po-1: a flag paid to the actor before they bound a linked human; po-2: their bot's; po-3: another
    // person's; po-4: another person's at settlement, theirs since (reassigned)
    await sql`
      insert into payouts (id, seq, settlement_id, story_id, role, beneficiary_kind, beneficiary_id, bot_id, linked_human_id, weight,
        amount_base, status, created_at, updated_at)
      values ('po-1', 1, 'se_r', 'st_1', 'RISK', 'HUMAN', 'actor_r', null, null, 1, 5, 'PENDING_RECIPIENT', now(), now()),
        ('po-2', 2, 'se_r', 'st_1', 'WRITER', 'BOT', 'bot_z', 'bot_z', 'h_r', 1, 7, 'PAYABLE', now(), now()),
        ('po-3', 3, 'se_r', 'st_1', 'FACT_CHECK', 'BOT', 'bot_q', 'bot_q', 'h_other', 1, 11, 'PAYABLE', now(), now()),
        ('po-4', 4, 'se_r', 'st_1', 'FACT_CHECK', 'BOT', 'bot_w', 'bot_w', 'h_other', 1, 13, 'PAYABLE', now(), now())`.execute(db);
    await sql`
      insert into payout_holders (holder_kind, holder_id, settlement_id, seqs)
      values ('BOT', 'bot_z', 'se_r', '{2}'), ('BOT', 'bot_q', 'se_r', '{3}'), ('BOT', 'bot_w', 'se_r', '{4}'),
        ('HUMAN', 'h_r', 'se_r', '{2}'), ('HUMAN', 'h_other', 'se_r', '{3,4}')`.execute(db);
    await sql`update payouts set linked_human_id = 'h_r' where id = 'po-4'`.execute(db);

    const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
    assert.deepEqual(ids(await recentPayouts(db, 'h_r', 'actor_r', 10)), ['po-1', 'po-2', 'po-4']);
    assert.deepEqual(ids(await payoutsOf(db, 'actor_r', 'h_r')), ['po-1', 'po-2', 'po-4']);
    // before binding a linked human: the flag only
    assert.deepEqual(ids(await recentPayouts(db, undefined, 'actor_r', 10)), ['po-1']);
    assert.deepEqual(ids(await payoutsOf(db, 'actor_r', null)), ['po-1']);
    // the other person keeps po-3 only
    assert.deepEqual(ids(await recentPayouts(db, 'h_other', 'actor_other', 10)), ['po-3']);
    const totals = await payoutTotals(db, 'h_r', 'actor_r');
    assert.deepEqual(totals.map((t) => [t.status, t.total, String(t.count)]).sort(), [
      ['PAYABLE', '20', '2'],
      ['PENDING_RECIPIENT', '5', '1'],
    ]);
  } finally {
    await shared.drop();
  }
});
