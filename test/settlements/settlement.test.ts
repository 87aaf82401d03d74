import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createSettlementService } from '../../src/rewards/settlements/service.js';
import { noCartelHolds } from '../../src/rewards/settlements/cartel-hook.js';
import { moneyGate, settlementContributions } from '../../src/composition.js';
import { storedInputs } from '../../src/rewards/settlements/published-inputs.js';
import {
  bot,
  closedStory,
  flag,
  review,
  PEOPLE,
  rewardRowCounts,
  rewardsApp,
  rewardVote,
  workedExample,
  type RewardsApp,
} from './support.js';
import type { Json } from '../helpers/json.js';
import { runEntry } from '../helpers/ts-entry.js';
import { needsPostgres } from '../helpers/needs.js';

const ORB = 10n ** 18n;
const orbs = (n: bigint) => (n * ORB).toString();
const TREASURER = { kind: 'human' as const, ...PEOPLE.treasurer, verified: true, tier: 'L3' as const };

/** The app's settlement service built again outside the app, reading a preview's units in parts or not. */
function settlementService(r: RewardsApp, readInParts: boolean) {
  const ctx = r.t.app.ctx;
  return createSettlementService({
    db: ctx.database.db,
    transactor: ctx.transactor,
    clock: ctx.clock,
    decimals: 18,
    cartelHolds: noCartelHolds,
    contributions: settlementContributions,
    controlPlane: moneyGate,
    cursors: ctx.cursors,
    readInParts,
  });
}

describe('rewards policy', () => {
  let r: RewardsApp;
  before(async () => (r = await rewardsApp()));
  after(async () => r.t.close());

  test('anyone reads the policy; the launch defaults are active', async () => {
    const res = await r.client.get<Json>('/v1/rewards/policy');
    assert.equal(res.status, 200);
    assert.deepEqual(
      { status: res.body.status, escrowRate: res.body.escrowRate, roleSplits: res.body.roleSplits, version: res.body.version },
      { status: 'ACTIVE', escrowRate: 0.1, roleSplits: { WRITER: 0.5, FACT_CHECK: 0.25, RISK: 0.15, SOURCE_DIVERSITY: 0.1 }, version: 1 },
    );
  });

  test('a rewards admin changes it: a new version, audited on the REWARDS chain', async () => {
    const res = await r.post('treasurer', '/v1/rewards/policy', {
      escrowRate: 0.125,
      roleSplits: { WRITER: 0.4, FACT_CHECK: 0.3, RISK: 0.2, SOURCE_DIVERSITY: 0.1 },
      reason: 'more weight on fact-checking',
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.version, 2);
    assert.equal(res.body.escrowRatePpm, 125000);
    assert.equal((await r.client.get<Json>('/v1/rewards/policy')).body.version, 2);
    const audit = await r.db.selectFrom('audit_events').selectAll().where('scope', '=', 'REWARDS').execute();
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.action, 'policy.updated');
    assert.equal(audit[0]!.linked_human_id, 'h_treasurer');
    assert.equal((audit[0]!.details as Json).to.escrowPpm, 125000);
  });

  test('refuses splits that do not sum to exactly 1, rates outside 0..1, and non-admins', async () => {
    const bad = await r.post('treasurer', '/v1/rewards/policy', {
      roleSplits: { WRITER: 0.5, FACT_CHECK: 0.25, RISK: 0.15, SOURCE_DIVERSITY: 0.05 },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'VALIDATION_FAILED');
    assert.equal((await r.post('treasurer', '/v1/rewards/policy', { escrowRate: 1.5 })).status, 400);
    assert.equal((await r.post('treasurer', '/v1/rewards/policy', { escrowRate: 0.1234567 })).status, 400);
    assert.equal((await r.post('treasurer', '/v1/rewards/policy', {})).status, 400);
    assert.equal((await r.post('treasurer', '/v1/rewards/policy', { status: 'ACTIVE', extra: 1 })).status, 400);
    const forbidden = await r.post('alice', '/v1/rewards/policy', { status: 'PAUSED' });
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.body.code, 'REWARDS_ADMIN_REQUIRED');
    // 0.1 + 0.2 is not 0.3 in floating point; in exact ppm it sums to 1
    const exact = await r.post('treasurer', '/v1/rewards/policy', {
      roleSplits: { WRITER: 0.1, FACT_CHECK: 0.2, RISK: 0.3, SOURCE_DIVERSITY: 0.4 },
    });
    assert.equal(exact.status, 202, JSON.stringify(exact.body));
  });

  test('a paused or disabled policy refuses runs with 409 REWARDS_PAUSED, and runs again once active', async () => {
    await closedStory(r);
    for (const status of ['PAUSED', 'DISABLED']) {
      assert.equal((await r.post('treasurer', '/v1/rewards/policy', { status })).status, 202);
      const run = await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 10 });
      assert.equal(run.status, 409);
      assert.equal(run.body.code, 'REWARDS_PAUSED');
      const preview = await r.get('treasurer', '/v1/rewards/settlements/preview', { totalPoolOrbs: '10' });
      assert.equal(preview.status, 200);
      assert.equal(preview.body.runnable, false);
    }
    assert.equal((await rewardRowCounts(r.db)).settlements, 0);
    await r.post('treasurer', '/v1/rewards/policy', { status: 'ACTIVE' });
    assert.equal((await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 10 })).status, 202);
  });
});

describe('settlement run, preview and the payout ledger', () => {
  let r: RewardsApp;
  let ex: Awaited<ReturnType<typeof workedExample>>;
  let settlement: Json;
  before(async () => {
    r = await rewardsApp();
    ex = await workedExample(r);
  });
  after(async () => r.t.close());

  test('preview computes the worked example of docs/rewards.md and writes nothing', async () => {
    const res = await r.get('treasurer', '/v1/rewards/settlements/preview', { totalPoolOrbs: '1000' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.pool.display, '1000');
    assert.equal(res.body.escrow.display, '235');
    assert.equal(res.body.paid.display, '765');
    const amounts = Object.fromEntries(res.body.beneficiaries.map((b: Json) => [b.beneficiaryId, b.amount.display]));
    assert.deepEqual(amounts, { [ex.a]: '540', [ex.b]: '150', [ex.c]: '75' });
    // the guide states these very numbers
    const guide = readFileSync('docs/rewards.md', 'utf8');
    const sentence = `A earns ${amounts[ex.a]}, B ${amounts[ex.b]}, C ${amounts[ex.c]}; paid ${res.body.paid.display} + escrow ${res.body.escrow.display} = ${res.body.pool.display}.`;
    assert.ok(guide.includes(sentence), sentence);
    assert.deepEqual(await rewardRowCounts(r.db), { settlements: 0, settled: 0, payouts: 0 });
  });

  test('run settles it once: payouts + escrow = pool, and a second run has nothing to settle', async () => {
    const res = await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 1000 });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    settlement = res.body;
    assert.equal(settlement.storyCount, 1);
    assert.equal(BigInt(settlement.paid.base) + BigInt(settlement.escrow.base), BigInt(orbs(1000n)));
    assert.equal(settlement.roles.RISK.paid.base, '0');
    const again = await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 1000 });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'NOTHING_TO_SETTLE');
    const payouts = await r.get('treasurer', '/v1/rewards/payouts', { settlementId: settlement.id });
    const byKey = Object.fromEntries(payouts.body.items.map((p: Json) => [`${p.role}:${p.beneficiaryId}`, p.amount.base]));
    assert.deepEqual(byKey, {
      [`WRITER:${ex.a}`]: orbs(450n),
      [`SOURCE_DIVERSITY:${ex.a}`]: orbs(90n),
      [`FACT_CHECK:${ex.b}`]: orbs(150n),
      [`FACT_CHECK:${ex.c}`]: orbs(75n),
    });
    // nobody has a recipient and wallet yet: the payouts wait for one
    assert.ok(payouts.body.items.every((p: Json) => p.status === 'PENDING_RECIPIENT'));
  });

  test(
    'npm run settlement:inputs prints the published inputs the API answers, and refuses an unknown settlement',
    { skip: needsPostgres('the command opens the database itself, and the test app holds the embedded one open') },
    async () => {
      const detail = await r.get('treasurer', `/v1/rewards/settlements/${settlement.id}`);
      const env = { ...process.env, DATABASE_URL: r.t.db.url } as NodeJS.ProcessEnv;
      const printed = await runEntry('src/rewards/settlements/inputs-cli.ts', [settlement.id], env);
      assert.equal(printed.status, 0, printed.stderr);
      assert.deepEqual(JSON.parse(printed.stdout), detail.body.inputs);
      const unknown = await runEntry('src/rewards/settlements/inputs-cli.ts', ['se_missing'], env);
      assert.equal(unknown.status, 1);
      assert.match(unknown.stderr, /no settlement se_missing/);
    },
  );

  test('a settlement publishes its inputs and lists with its filters and limits', async () => {
    const detail = await r.get('treasurer', `/v1/rewards/settlements/${settlement.id}`);
    assert.equal(detail.status, 200);
    assert.deepEqual(detail.body.storyIds, [ex.story.id]);
    assert.equal(detail.body.inputs.stories[0].voteWeight, '4');
    const writer = detail.body.inputs.contributions.find((c: Json) => c.role === 'WRITER');
    assert.deepEqual(
      { units: writer.units, storyVoteWeight: writer.storyVoteWeight, weight: writer.weight },
      { units: '1', storyVoteWeight: '4', weight: '4' },
    );
    assert.equal((await r.get('treasurer', '/v1/rewards/settlements/se_missing')).status, 404);
    // stored packed and compressed
    const stored = await r.db.selectFrom('settlements').select(['inputs_gzip']).where('id', '=', settlement.id).executeTakeFirstOrThrow();
    assert.ok(gunzipSync(stored.inputs_gzip!).toString('latin1').startsWith('packed-inputs/1\n'));
    assert.deepEqual(JSON.parse(JSON.stringify(await storedInputs(stored))), detail.body.inputs);

    const list = await r.get('treasurer', '/v1/rewards/settlements', { limit: '1', verified: '1' });
    assert.equal(list.status, 200);
    assert.equal(list.body.items[0].id, settlement.id);
    for (const bad of [{ limit: '0' }, { limit: '101' }, { verified: 'yes' }]) {
      assert.equal((await r.get('treasurer', '/v1/rewards/settlements', bad)).status, 400, JSON.stringify(bad));
    }
    assert.equal((await r.get('alice', '/v1/rewards/settlements')).status, 403);

    const fc = await r.get('treasurer', '/v1/rewards/payouts', { role: 'FACT_CHECK', verified: 'false' });
    assert.deepEqual(fc.body.items.map((p: Json) => p.botId).sort(), [ex.b, ex.c].sort());
    const ofA = await r.get('treasurer', '/v1/rewards/payouts', { botId: ex.a, storyId: ex.story.id });
    assert.deepEqual(ofA.body.items.map((p: Json) => p.role).sort(), ['SOURCE_DIVERSITY', 'WRITER']);
    const first = await r.get('treasurer', '/v1/rewards/payouts', { limit: '3', verified: '0' });
    assert.equal(first.body.items.length, 3);
    const next = await r.get('treasurer', '/v1/rewards/payouts', { limit: '3', cursor: first.body.nextCursor });
    assert.equal(next.body.items.length, 1);
    assert.equal(next.body.nextCursor, undefined);
    assert.equal((await r.get('treasurer', '/v1/rewards/payouts', { cursor: 'bogus' })).body.code, 'INVALID_CURSOR');
    assert.equal((await r.get('treasurer', '/v1/rewards/payouts', { limit: '501' })).status, 400);
    assert.equal((await r.get('treasurer', '/v1/rewards/payouts', { role: 'EDITOR' })).status, 400);
    assert.equal((await r.get('treasurer', '/v1/rewards/settlements/preview', { totalPoolOrbs: '0.001' })).status, 400);
    assert.equal((await r.get('treasurer', '/v1/rewards/settlements/preview', {})).status, 400);
    assert.equal((await r.get('treasurer', '/v1/rewards/settlements/preview', { totalPoolOrbs: '1e300' })).status, 400);
    assert.equal((await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 1e300 })).status, 400);
  });
});

describe('who is paid for what', () => {
  test('a retracted story pays RISK only: upheld objectors and flaggers, nothing to its writer', async () => {
    const r = await rewardsApp();
    try {
      const author = await bot(r.db);
      const objector = await bot(r.db, 'h_carol');
      const story = await closedStory(r, { authorBotId: author, review: 'RETRACTED' });
      await review(r.db, story, objector, 'OBJECTION', 2);
      await flag(r.db, story.id, 'alice', 'h_alice');
      await flag(r.db, story.id, 'anon-reader', null);
      await rewardVote(r.db, story.id, 'voter', 'UP', 1);
      const run = await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 100 });
      assert.equal(run.status, 202, JSON.stringify(run.body));
      const payouts = (await r.get('treasurer', '/v1/rewards/payouts', { settlementId: run.body.id })).body.items as Json[];
      const risk = Object.fromEntries(payouts.map((p) => [p.beneficiaryId, [p.role, p.amount.display, p.linkedHumanId]]));
      // RISK pool: 100 × 0.9 × 0.15 = 13.5, by weight 2 : 1 : 1
      assert.deepEqual(risk, {
        [objector]: ['RISK', '6.75', 'h_carol'],
        h_alice: ['RISK', '3.375', 'h_alice'],
        'anon-reader': ['RISK', '3.375', null],
      });
      assert.equal(run.body.escrow.display, '86.5');
    } finally {
      await r.t.close();
    }
  });
  test('independent sources are counted by the host the service stores for each source: case, www., port and user dropped', async () => {
    const r = await rewardsApp();
    try {
      const author = await bot(r.db);
      const checker = await bot(r.db);
      const story = await closedStory(r, {
        authorBotId: author,
        sources: [
          { url: 'https://WWW.Harbour.example/minutes', title: 'Minutes' },
          { url: 'https://harbour.example:8443/vote', title: 'Vote record' },
          { url: 'https://editor@harbour.example/notes', title: 'Notes' },
          { url: 'https://gazette.example/ferries', title: 'Gazette' },
        ],
      });
      await review(r.db, story, checker, 'ATTESTATION', 1);
      await rewardVote(r.db, story.id, 'voter', 'UP', 1);
      const run = await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 100 });
      assert.equal(run.status, 202, JSON.stringify(run.body));
      const settled = await r.get('treasurer', `/v1/rewards/settlements/${run.body.id}`);
      const diversity = (settled.body.inputs.contributions as Json[]).filter((c) => c.role === 'SOURCE_DIVERSITY');
      assert.deepEqual(
        diversity.map((c) => [c.beneficiaryId, c.units]),
        [[author, '2']],
      );
    } finally {
      await r.t.close();
    }
  });
});

describe('payouts of one settlement', () => {
  test('each settlement lists exactly its own payouts, page by page: the block of seq its run reserved', async () => {
    const r = await rewardsApp();
    try {
      const runs: Json[] = [];
      for (const human of ['h_one', 'h_two']) {
        const author = await bot(r.db, human);
        const checker = await bot(r.db);
        const story = await closedStory(r, { authorBotId: author });
        await review(r.db, story, checker, 'ATTESTATION', 1);
        await rewardVote(r.db, story.id, `voter-${human}`, 'UP', 1);
        const run = await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 100 });
        assert.equal(run.status, 202, JSON.stringify(run.body));
        runs.push(run.body);
      }
      for (const run of runs) {
        const listed: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await r.get('treasurer', '/v1/rewards/payouts', { settlementId: run.id, limit: '1', cursor });
          assert.equal(page.status, 200, JSON.stringify(page.body));
          for (const p of page.body.items as Json[]) {
            assert.equal(p.settlementId, run.id);
            listed.push(p.id);
          }
          cursor = page.body.nextCursor;
        } while (cursor);
        const stored = await r.db.selectFrom('payouts').select(['id', 'seq']).where('settlement_id', '=', run.id).orderBy('seq').execute();
        assert.equal(stored.length, run.payoutCount);
        assert.ok(stored.length >= 2);
        assert.deepEqual(
          listed,
          stored.map((p) => p.id),
        );
        const range = await r.db
          .selectFrom('settlements')
          .select(['payout_seq_first', 'payout_seq_last'])
          .where('id', '=', run.id)
          .executeTakeFirstOrThrow();
        assert.deepEqual([range.payout_seq_first, range.payout_seq_last], [stored[0]!.seq, stored.at(-1)!.seq]);
        // one seq per contribution (every contribution is paid here)
        assert.equal(BigInt(range.payout_seq_last!) - BigInt(range.payout_seq_first!) + 1n, BigInt(run.contributionCount));
      }
    } finally {
      await r.t.close();
    }
  });

  test('a share rounded to nothing leaves its seq unused: the blocks still hold exactly their payouts', async () => {
    // two decimals: a pool of 0.03 orbs is 3 base units for nine contributions
    const r = await rewardsApp({ REWARD_TOKEN_DECIMALS: '2' });
    try {
      for (let i = 0; i < 3; i++) {
        const story = await closedStory(r, { authorBotId: await bot(r.db, 'h_one') });
        await review(r.db, story, await bot(r.db), 'ATTESTATION', 1);
        await review(r.db, story, await bot(r.db), 'ATTESTATION', 1);
        await rewardVote(r.db, story.id, `voter-${i}`, 'UP', 1);
      }
      const run = await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 0.03 });
      assert.equal(run.status, 202, JSON.stringify(run.body));
      assert.ok(run.body.payoutCount > 0 && run.body.payoutCount < run.body.contributionCount, JSON.stringify(run.body));
      const stored = await r.db.selectFrom('payouts').select(['id', 'seq', 'story_id']).orderBy('seq').execute();
      assert.equal(stored.length, run.body.payoutCount);
      const block = await r.db
        .selectFrom('settlements')
        .select(['payout_seq_first', 'payout_seq_last'])
        .where('id', '=', run.body.id)
        .executeTakeFirstOrThrow();
      assert.equal(BigInt(block.payout_seq_last!) - BigInt(block.payout_seq_first!) + 1n, BigInt(run.body.contributionCount));
      const stories = await r.db.selectFrom('settled_stories').selectAll().where('settlement_id', '=', run.body.id).execute();
      for (const p of stored) {
        const own = stories.find((s) => s.story_id === p.story_id)!;
        assert.ok(BigInt(p.seq) >= BigInt(own.payout_seq_first!) && BigInt(p.seq) <= BigInt(own.payout_seq_last!));
        assert.ok(BigInt(p.seq) >= BigInt(block.payout_seq_first!) && BigInt(p.seq) <= BigInt(block.payout_seq_last!));
      }
      const listed = (await r.get('treasurer', '/v1/rewards/payouts', { settlementId: run.body.id, limit: '100' })).body.items as Json[];
      assert.deepEqual(
        listed.map((p) => p.id),
        stored.map((p) => p.id),
      );
    } finally {
      await r.t.close();
    }
  });
});

describe('settlement failures and races', () => {
  test('a run that fails halfway leaves nothing behind and can run again', async () => {
    const r = await rewardsApp();
    try {
      const story = await closedStory(r);
      await rewardVote(r.db, story.id, 'voter', 'UP', 3);
      // the database refuses the payouts: the settlement row and the settled stories were already written (a
      // trigger is the owner's to add: the service's runtime role may not)
      const owner = r.t.db.owner.db;
      await sql`create function refuse_payouts() returns trigger language plpgsql as $$ begin raise exception 'disk full'; end $$`.execute(
        owner,
      );
      await sql`create trigger refuse_payouts before insert on payouts for each statement execute function refuse_payouts()`.execute(owner);
      const service = settlementService(r, false);
      await assert.rejects(service.run(TREASURER, '100'), /disk full/);
      assert.deepEqual(await rewardRowCounts(r.db), { settlements: 0, settled: 0, payouts: 0 });
      await sql`drop trigger refuse_payouts on payouts`.execute(owner);
      const res = await service.run(TREASURER, '100');
      assert.equal(res.storyCount, 1);
      assert.deepEqual(await rewardRowCounts(r.db), { settlements: 1, settled: 1, payouts: 2 });
    } finally {
      await r.t.close();
    }
  });

  test('the database settles a story at most once', async () => {
    const r = await rewardsApp();
    try {
      await closedStory(r);
      const run = await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 5 });
      assert.equal(run.status, 202);
      const storyId = (await r.db.selectFrom('settled_stories').select('story_id').executeTakeFirstOrThrow()).story_id;
      await assert.rejects(r.db.insertInto('settled_stories').values({ story_id: storyId, settlement_id: run.body.id }).execute());
    } finally {
      await r.t.close();
    }
  });
});

describe('a preview read in parts', () => {
  test('the preview read in statements side by side answers what one statement does, and what the run then pays', async () => {
    const r = await rewardsApp();
    try {
      // stories of both parts (odd and even seq), each with its writer and reviewers; two are retracted and pay RISK
      const checkers = [await bot(r.db, 'h_alice'), await bot(r.db), await bot(r.db, 'h_carol')];
      for (let i = 0; i < 6; i++) {
        const review_ = i % 3 === 2 ? ('RETRACTED' as const) : undefined;
        const story = await closedStory(r, { authorBotId: await bot(r.db), ...(review_ ? { review: review_ } : {}) });
        for (const [k, checker] of checkers.entries()) {
          await review(r.db, story, checker, i % 3 === 2 ? 'OBJECTION' : 'ATTESTATION', 1 + ((i + k) % 3));
        }
        if (review_) await flag(r.db, story.id, `reader-${i}`, null);
        await rewardVote(r.db, story.id, `voter-${i}`, 'UP', 1 + (i % 3));
      }
      const seqs = await r.db.selectFrom('stories').select('seq').execute();
      assert.deepEqual(new Set(seqs.map((s) => Number(s.seq) % 2)), new Set([0, 1]), 'stories in both parts');
      const [parts, whole] = await Promise.all([
        settlementService(r, true).preview(TREASURER, '1000'),
        settlementService(r, false).preview(TREASURER, '1000'),
      ]);
      const essentials = (p: typeof parts) => ({
        count: p.contributionCount,
        paid: p.paid,
        escrow: p.escrow,
        beneficiaries: p.beneficiaries,
      });
      assert.deepEqual(essentials(parts), essentials(whole));
      // four kept stories (not graduated): writer and source diversity each; two retracted: three objectors and a flagger each
      assert.equal(parts.contributionCount, 4 * 2 + 2 * 4);
      const run = await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 1000 });
      assert.equal(run.status, 202, JSON.stringify(run.body));
      assert.equal(run.body.paid.base, parts.paid.base);
      const payouts = (await r.get('treasurer', '/v1/rewards/payouts', { settlementId: run.body.id, limit: '200' })).body.items as Json[];
      const paidTo = new Map<string, bigint>();
      for (const p of payouts) paidTo.set(p.beneficiaryId, (paidTo.get(p.beneficiaryId) ?? 0n) + BigInt(p.amount.base));
      assert.deepEqual(
        Object.fromEntries(parts.beneficiaries.map((b) => [b.beneficiaryId, BigInt(b.amount.base)])),
        Object.fromEntries(paidTo),
      );
    } finally {
      await r.t.close();
    }
  });
});
