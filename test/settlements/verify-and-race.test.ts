import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { verifySettlement } from '../../src/rewards/settlements/verify.js';
import { TEST_SECRET } from '../helpers/app.js';
import { needsPostgres } from '../helpers/needs.js';
import { closedStory, rewardRowCounts, rewardsApp, rewardVote, workedExample } from './support.js';
import { runEntry } from '../helpers/ts-entry.js';

/** `npm run settlement:verify <id>` in a child process. */
const verifyCli = (id: string, env: NodeJS.ProcessEnv) => runEntry('scripts/settlement-verify.ts', [id], env);

describe('settlement verification and concurrent runs', () => {
  test('settlement:verify recomputes a settlement through the API and notices a tampered payout', async () => {
    const r = await rewardsApp();
    try {
      await workedExample(r);
      for (let i = 0; i < 3; i++) {
        const s = await closedStory(r);
        await rewardVote(r.db, s.id, `v${i}`, 'UP', i + 1);
      }
      const run = await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 333.333333 });
      assert.equal(run.status, 202, JSON.stringify(run.body));
      const options = {
        baseUrl: r.t.baseUrl,
        secret: TEST_SECRET,
        actor: { actorId: 'treasurer', linkedHumanId: 'h_treasurer' },
        settlementId: run.body.id,
      };
      const verdict = await verifySettlement(options);
      assert.equal(verdict.match, true, verdict.mismatches.join('\n'));
      assert.equal(verdict.payoutsChecked, run.body.payoutCount);

      // the command-line tool says the same (exit 0) ...
      const env = {
        ...process.env,
        SERVICE_URL: r.t.baseUrl,
        HUMAN_SIGNING_SECRET: TEST_SECRET,
        REWARDS_ACTOR_ID: 'treasurer',
        REWARDS_LINKED_HUMAN_ID: 'h_treasurer',
      };
      const ok = await verifyCli(run.body.id, env);
      assert.equal(ok.status, 0, ok.stdout + ok.stderr);
      assert.match(ok.stdout, /verified/);

      // ... and a payout changed behind the settlement's back no longer matches (exit 1)
      const victim = await r.db.selectFrom('payouts').select(['id', 'amount_base']).orderBy('seq').limit(1).executeTakeFirstOrThrow();
      await r.db
        .updateTable('payouts')
        .set({ amount_base: (BigInt(victim.amount_base) + 1n).toString() })
        .where('id', '=', victim.id)
        .execute();
      const tampered = await verifySettlement(options);
      assert.equal(tampered.match, false);
      assert.match(tampered.mismatches.join('\n'), new RegExp(victim.id));
      const bad = await verifyCli(run.body.id, env);
      assert.equal(bad.status, 1, bad.stdout + bad.stderr);
    } finally {
      await r.t.close();
    }
  });

  test(
    'two concurrent runs on two instances settle each story once',
    { skip: needsPostgres('two transactions racing need real PostgreSQL') },
    async () => {
      const one = await rewardsApp();
      const two = await rewardsApp({}, one.t.db);
      try {
        for (let i = 0; i < 20; i++) {
          const s = await closedStory(one);
          await rewardVote(one.db, s.id, `v${i}`, 'UP', 1 + (i % 3));
        }
        const results = await Promise.all([
          one.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 100 }),
          two.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 100 }),
        ]);
        const statuses = results.map((res) => res.status).sort();
        assert.deepEqual(statuses, [202, 409]);
        assert.equal(results.find((res) => res.status === 409)!.body.code, 'NOTHING_TO_SETTLE');
        const counts = await rewardRowCounts(one.db);
        assert.equal(counts.settlements, 1);
        assert.equal(counts.settled, 20);
      } finally {
        await two.t.close();
        await one.t.close();
      }
    },
  );
});
