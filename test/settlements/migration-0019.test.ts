import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { payoutsOf } from '../../src/rewards/settlements/payout-scope.js';
import { createEmptyDatabase } from '../helpers/app.js';
import { migrateAcross } from '../helpers/migrations.js';
import { insertSettlementRow, insertStoryRows } from './support.js';

/**
 * Migration 0019 on a database that already holds settlements: each settled story gets the block of seq its
 * payouts lie in, the story index goes, and the payouts of a story are found as before, also where an older
 * run wrote its stories' payouts interleaved.
 */
test('0019 gives the stories settled before it the seq blocks of their payouts', async () => {
  const shared = await createEmptyDatabase();
  const db = shared.owner.db;
  try {
    await migrateAcross(shared.owner, '0019', async () => {
      await insertStoryRows(db, 3);
      await insertSettlementRow(db, 'se_old', { payoutCount: 6, seqs: [1, 6] });
      await sql`insert into settled_stories (story_id, settlement_id) values ('st_1', 'se_old'), ('st_2', 'se_old'), ('st_3', 'se_old')`.execute(
        db,
      );
      // an older run's order: st_1 and st_2 interleaved, st_3 after them, so st_3 has no payout here
      const order = ['st_1', 'st_2', 'st_1', 'st_2', 'st_1', 'st_2'];
      await sql`
      insert into payouts (id, seq, settlement_id, story_id, role, beneficiary_kind, beneficiary_id, weight, amount_base, status,
        created_at, updated_at)
      select 'po_' || n, n, 'se_old', story, 'WRITER', 'BOT', 'bot_' || n, 1, 1, 'PAYABLE', now(), now()
      from unnest(${order}::text[]) with ordinality as t(story, n)`.execute(db);
    });
    const blocks = await db
      .selectFrom('settled_stories')
      .select(['story_id', 'payout_seq_first', 'payout_seq_last'])
      .orderBy('story_id')
      .execute();
    assert.deepEqual(
      blocks.map((b) => [b.story_id, b.payout_seq_first, b.payout_seq_last]),
      [
        ['st_1', '1', '5'],
        ['st_2', '2', '6'],
        ['st_3', null, null],
      ],
    );
    // the interleaved block of st_1 also spans st_2's payouts: the story key keeps them apart
    const ofStory = async (storyId: string) =>
      (await db.selectFrom('payouts').select('id').where(payoutsOf('story', storyId)).orderBy('seq').execute()).map((p) => p.id);
    assert.deepEqual(await ofStory('st_1'), ['po_1', 'po_3', 'po_5']);
    assert.deepEqual(await ofStory('st_2'), ['po_2', 'po_4', 'po_6']);
    assert.deepEqual(await ofStory('st_3'), []);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_indexes where indexname = 'payouts_story'`.execute(db);
    assert.equal(rows[0]!.n, 0);
  } finally {
    await shared.drop();
  }
});
