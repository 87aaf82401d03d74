import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { nextCaseStatus, type CaseMove } from '../../src/rewards/review/case-states.js';
import type { ReviewCaseStatus } from '../../src/rewards/rows.js';
import { bindWallet, bot, closedStory, PEOPLE, rewardsApp, rewardVote, type RewardsApp } from './support.js';
import { bindActor } from '../helpers/identity.js';
import { createServices } from '../../src/composition.js';
import type { Json } from '../helpers/json.js';
import { needsPostgres } from '../helpers/needs.js';
import { lockSettlementRuns } from '../../src/rewards/settlements/repository.js';
import { sql } from 'kysely';

const statusesOf = async (r: RewardsApp, query: Record<string, string>) =>
  ((await r.get('treasurer', '/v1/rewards/payouts', query)).body.items as Json[]).map((p) => p.status);

describe('freezes', () => {
  let r: RewardsApp;
  before(async () => (r = await rewardsApp()));
  after(async () => r.t.close());

  test('a frozen story gets no payable payout; unfreeze returns its payouts to REVIEW, a case releases them', async () => {
    const recipientId = await bindWallet(r, 'alice');
    const writer = await bot(r.db, 'h_alice');
    const story = await closedStory(r, { authorBotId: writer });
    await rewardVote(r.db, story.id, 'v', 'UP', 2);
    const freeze = await r.post('treasurer', `/v1/admin/rewards/stories/${story.id}/freeze`, { reason: 'vote ring suspected' });
    assert.equal(freeze.status, 202, JSON.stringify(freeze.body));
    assert.equal(
      (await r.post('treasurer', `/v1/admin/rewards/stories/${story.id}/freeze`, { reason: 'again' })).body.code,
      'ALREADY_FROZEN',
    );

    const run = await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 100 });
    assert.equal(run.status, 202);
    assert.deepEqual(await statusesOf(r, { storyId: story.id }), ['FROZEN', 'FROZEN']);

    const queue = await r.get('treasurer', '/v1/admin/rewards/review-queue', { limit: '10' });
    assert.equal(queue.status, 200, JSON.stringify(queue.body));
    const item = queue.body.items.find((i: Json) => i.kind === 'FROZEN_STORY');
    assert.equal(item.targetId, story.id);
    assert.equal(item.held.count, 2);

    const unfreeze = await r.post('treasurer', `/v1/admin/rewards/stories/${story.id}/unfreeze`, { reason: 'ring not confirmed' });
    assert.equal(unfreeze.status, 202);
    assert.equal(unfreeze.body.payoutsToReview, 2);
    assert.deepEqual(await statusesOf(r, { storyId: story.id }), ['REVIEW', 'REVIEW']);
    assert.equal(
      (await r.post('treasurer', `/v1/admin/rewards/stories/${story.id}/unfreeze`, { reason: 'again' })).body.code,
      'NOT_FROZEN',
    );

    const opened = await r.post('treasurer', '/v1/admin/rewards/review-cases', {
      targetType: 'STORY',
      targetId: story.id,
      reason: 'check the votes',
    });
    assert.equal(opened.status, 202);
    await r.post('treasurer', `/v1/admin/rewards/review-cases/${opened.body.id}/assign`, { assigneeActorId: 'treasurer' });
    const resolved = await r.post('treasurer', `/v1/admin/rewards/review-cases/${opened.body.id}/resolve`, {
      outcome: 'RESOLVED',
      resolution: 'votes are genuine',
      releasePayouts: true,
    });
    assert.equal(resolved.status, 202, JSON.stringify(resolved.body));
    assert.deepEqual(await statusesOf(r, { storyId: story.id }), ['PAYABLE', 'PAYABLE']);
    assert.ok(recipientId);
  });

  test('a case on one payout finds it by its id (`po-` and its seq) and releases it alone', async () => {
    if (!(await r.get('alice', '/v1/rewards/eligibility', { userId: 'alice' })).body.recipient) await bindWallet(r, 'alice');
    const writer = await bot(r.db, 'h_alice');
    const story = await closedStory(r, { authorBotId: writer });
    await rewardVote(r.db, story.id, 'v-alice', 'UP', 2);
    await r.post('treasurer', `/v1/admin/rewards/stories/${story.id}/freeze`, { reason: 'a ring' });
    const run = await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 100 });
    assert.equal(run.status, 202, JSON.stringify(run.body));
    const payouts = (await r.get('treasurer', '/v1/rewards/payouts', { storyId: story.id })).body.items as Json[];
    assert.equal(payouts.length, 2);
    const seqs = await r.db.selectFrom('payouts').select(['id', 'seq']).where('story_id', '=', story.id).orderBy('seq').execute();
    assert.deepEqual(
      seqs.map((p) => p.id),
      seqs.map((p) => `po-${p.seq}`),
      "a run's payout ids are `po-` and their seq",
    );
    const open = (targetId: string) =>
      r.post('treasurer', '/v1/admin/rewards/review-cases', { targetType: 'PAYOUT', targetId, reason: 'one payout' });
    const target = payouts[0]!.id as string;
    const opened = await open(target);
    assert.equal(opened.status, 202, JSON.stringify(opened.body));
    for (const missing of ['po-999999999', 'po-0', `po-0${target.slice(3)}`, 'po_Xk3Jx9QmT2vL0002', `x${target}`]) {
      const res = await open(missing);
      assert.equal(res.status, 400, missing);
      assert.equal(res.body.details[0].message, 'no payout has this id', missing);
    }
    const queued = (await r.get('treasurer', '/v1/admin/rewards/review-queue', { limit: '100' })).body.items as Json[];
    assert.equal(queued.find((i) => i.kind === 'CASE' && i.targetId === target)?.queue, 'FROZEN', 'its payout is frozen');

    await r.post('treasurer', `/v1/admin/rewards/stories/${story.id}/unfreeze`, { reason: 'no ring' });
    assert.deepEqual(await statusesOf(r, { storyId: story.id }), ['REVIEW', 'REVIEW']);
    const resolve = (caseId: string) =>
      r.post('treasurer', `/v1/admin/rewards/review-cases/${caseId}/resolve`, {
        outcome: 'DISMISSED',
        resolution: 'fine',
        releasePayouts: true,
      });
    assert.equal((await resolve(opened.body.id)).status, 202);
    const after = (await r.get('treasurer', '/v1/rewards/payouts', { storyId: story.id })).body.items as Json[];
    assert.deepEqual(
      after.map((p) => [p.id, p.status]),
      payouts.map((p) => [p.id, p.id === target ? 'PAYABLE' : 'REVIEW']),
    );
  });

  test("freezing a settled story freezes its payouts alone: each story's payouts lie in its own block of seq", async () => {
    if (!(await r.get('alice', '/v1/rewards/eligibility', { userId: 'alice' })).body.recipient) await bindWallet(r, 'alice');
    const stories: string[] = [];
    for (const weight of [1, 2, 0, 3]) {
      const story = await closedStory(r, { authorBotId: await bot(r.db, 'h_alice') });
      if (weight) await rewardVote(r.db, story.id, 'v', 'UP', weight);
      stories.push(story.id);
    }
    const run = await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 100 });
    assert.equal(run.status, 202, JSON.stringify(run.body));
    const blocks = await r.db
      .selectFrom('settled_stories')
      .select(['story_id', 'payout_seq_first', 'payout_seq_last'])
      .where('settlement_id', '=', run.body.id)
      .execute();
    const payouts = await r.db.selectFrom('payouts').select(['id', 'seq', 'story_id']).where('settlement_id', '=', run.body.id).execute();
    for (const storyId of stories) {
      const block = blocks.find((b) => b.story_id === storyId)!;
      const own = payouts.filter((p) => p.story_id === storyId);
      if (storyId === stories[2]) {
        // no reward vote, no contribution: no block
        assert.deepEqual([block.payout_seq_first, block.payout_seq_last, own.length], [null, null, 0]);
        continue;
      }
      const inBlock = payouts.filter(
        (p) => BigInt(p.seq) >= BigInt(block.payout_seq_first!) && BigInt(p.seq) <= BigInt(block.payout_seq_last!),
      );
      assert.ok(own.length > 0);
      assert.deepEqual(inBlock, own, `the block of ${storyId} holds its payouts and only them`);
      const listed = (await r.get('treasurer', '/v1/rewards/payouts', { storyId, limit: '100' })).body.items as Json[];
      assert.deepEqual(
        listed.map((p) => p.id),
        own.map((p) => p.id),
      );
    }

    const frozen = await r.post('treasurer', `/v1/admin/rewards/stories/${stories[1]}/freeze`, { reason: 'vote ring suspected' });
    assert.equal(frozen.status, 202, JSON.stringify(frozen.body));
    const own = payouts.filter((p) => p.story_id === stories[1]).length;
    assert.equal(frozen.body.payoutsFrozen, own);
    assert.deepEqual(await statusesOf(r, { storyId: stories[1]! }), Array<string>(own).fill('FROZEN'));
    for (const other of [stories[0]!, stories[3]!]) assert.ok((await statusesOf(r, { storyId: other })).every((s) => s === 'PAYABLE'));
  });

  test('freezing a recipient freezes its pending payouts and later runs; unfreeze never makes them payable', async () => {
    const recipientId =
      (await r.get('carol', '/v1/rewards/eligibility', { userId: 'carol' })).body.recipient?.id ?? (await bindWallet(r, 'carol'));
    const writer = await bot(r.db, 'h_carol');
    const first = await closedStory(r, { authorBotId: writer });
    await rewardVote(r.db, first.id, 'v', 'UP', 1);
    await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 10 });
    assert.deepEqual(await statusesOf(r, { botId: writer }), ['PAYABLE', 'PAYABLE']);

    const freeze = await r.post('treasurer', `/v1/admin/rewards/recipients/${recipientId}/freeze`, { reason: 'sybil review' });
    assert.equal(freeze.status, 202);
    assert.equal(freeze.body.payoutsFrozen, 2);
    assert.deepEqual(await statusesOf(r, { botId: writer }), ['FROZEN', 'FROZEN']);
    const wallet = await r.post('carol', '/v1/rewards/wallets/challenge', { address: `0x${'1'.repeat(40)}`, chainId: 1 });
    assert.equal(wallet.body.code, 'RECIPIENT_FROZEN');

    const second = await closedStory(r, { authorBotId: writer });
    await rewardVote(r.db, second.id, 'v', 'UP', 1);
    await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 10 });
    assert.deepEqual(await statusesOf(r, { storyId: second.id }), ['FROZEN', 'FROZEN']);

    const unfreeze = await r.post('treasurer', `/v1/admin/rewards/recipients/${recipientId}/unfreeze`, { reason: 'cleared' });
    assert.equal(unfreeze.body.payoutsToReview, 4);
    assert.deepEqual(await statusesOf(r, { botId: writer }), ['REVIEW', 'REVIEW', 'REVIEW', 'REVIEW']);
    assert.equal((await r.post('treasurer', '/v1/admin/rewards/recipients/rcp_nobody/freeze', { reason: 'x' })).status, 404);
    assert.equal((await r.post('alice', `/v1/admin/rewards/recipients/${recipientId}/freeze`, { reason: 'x' })).status, 403);
  });
});

describe('writes that change what a run reads wait for a run in progress', () => {
  let r: RewardsApp;
  before(async () => (r = await rewardsApp()));
  after(async () => r.t.close());

  /**
   * Holds the settlement runs' lock in a transaction of its own (a run in progress), sends `write`, checks that it
   * waits on that lock (a backend waits for an advisory lock), then lets the "run" end and returns the write's answer.
   */
  async function duringARun<T>(write: () => Promise<T>): Promise<T> {
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const run = r.db.transaction().execute(async (tx) => {
      await lockSettlementRuns(tx);
      held();
      await ended;
    });
    await holding;
    const answer = write();
    try {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`.execute(r.db);
        if (rows[0]!.n === 1) break;
        assert.ok(Date.now() < deadline, 'the write never waited for the run');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      end();
      await run;
    }
    return answer;
  }

  test(
    "a recipient's and a story's freeze and unfreeze, and a wallet's verification, each wait for the run",
    { skip: needsPostgres('a run in progress and a concurrent write need two connections of real PostgreSQL') },
    async () => {
      const recipientId = await bindWallet(r, 'carol');
      const story = await closedStory(r, { authorBotId: await bot(r.db, 'h_carol') });
      const admin = (path: string) => () => r.post('treasurer', path, { reason: 'checked during a run' });
      assert.equal((await duringARun(admin(`/v1/admin/rewards/recipients/${recipientId}/freeze`))).status, 202);
      assert.equal((await duringARun(admin(`/v1/admin/rewards/recipients/${recipientId}/unfreeze`))).status, 202);
      assert.equal((await duringARun(admin(`/v1/admin/rewards/stories/${story.id}/freeze`))).status, 202);
      assert.equal((await duringARun(admin(`/v1/admin/rewards/stories/${story.id}/unfreeze`))).status, 202);

      const { generatePrivateKey, privateKeyToAccount } = await import('viem/accounts');
      const wallet = privateKeyToAccount(generatePrivateKey());
      const challenge = await r.post('carol', '/v1/rewards/wallets/challenge', { address: wallet.address, chainId: 1 });
      const signature = await wallet.signMessage({ message: challenge.body.message as string });
      const verify = await duringARun(() =>
        r.post('carol', '/v1/rewards/wallets/verify', { challengeId: challenge.body.challengeId, signature }),
      );
      assert.equal(verify.status, 202, JSON.stringify(verify.body));
    },
  );
});

describe('review cases', () => {
  let r: RewardsApp;
  let storyId: string;
  before(async () => {
    r = await rewardsApp();
    storyId = (await closedStory(r)).id;
  });
  after(async () => r.t.close());

  const open = async () =>
    (await r.post('treasurer', '/v1/admin/rewards/review-cases', { targetType: 'STORY', targetId: storyId, reason: 'odd votes' })).body;
  const act = (id: string, move: string, body: Json) => r.post('treasurer', `/v1/admin/rewards/review-cases/${id}/${move}`, body);

  test('moves through its states, refusing illegal moves with 409 and recording who and when', async () => {
    const c = await open();
    assert.equal(c.status, 'OPEN');
    assert.equal((await act(c.id, 'appeal', { note: 'too early' })).body.code, 'REVIEW_CASE_TRANSITION_INVALID');
    assert.equal((await act(c.id, 'resolve', { outcome: 'RESOLVED', resolution: 'unreviewed' })).status, 409);
    assert.equal((await act(c.id, 'assign', { assigneeActorId: 'reviewer-1' })).body.status, 'IN_REVIEW');
    assert.equal((await act(c.id, 'assign', { escalate: true, note: 'needs a senior' })).body.status, 'ESCALATED');
    assert.equal((await act(c.id, 'resolve', { outcome: 'DISMISSED', resolution: 'no evidence' })).body.status, 'DISMISSED');
    assert.equal((await act(c.id, 'assign', { assigneeActorId: 'reviewer-2' })).status, 409);
    const appealed = await act(c.id, 'appeal', { note: 'new evidence' });
    assert.equal(appealed.body.status, 'APPEALED');
    const final = await act(c.id, 'resolve', { outcome: 'RESOLVED', resolution: 'confirmed' });
    assert.equal(final.body.status, 'RESOLVED');
    assert.deepEqual(
      final.body.history.map((h: Json) => [h.action, h.fromStatus, h.toStatus, h.actor]),
      [
        ['open', null, 'OPEN', 'h_treasurer'],
        ['assign', 'OPEN', 'IN_REVIEW', 'h_treasurer'],
        ['escalate', 'IN_REVIEW', 'ESCALATED', 'h_treasurer'],
        ['dismiss', 'ESCALATED', 'DISMISSED', 'h_treasurer'],
        ['appeal', 'DISMISSED', 'APPEALED', 'h_treasurer'],
        ['resolve', 'APPEALED', 'RESOLVED', 'h_treasurer'],
      ],
    );
    assert.ok(final.body.history.every((h: Json) => !Number.isNaN(Date.parse(h.at))));
    assert.equal((await act('rc_missing', 'appeal', { note: 'x' })).status, 404);
    assert.equal((await act(c.id, 'assign', {})).status, 400);
    assert.equal(
      (await r.post('treasurer', '/v1/admin/rewards/review-cases', { targetType: 'STORY', targetId: 'st_missing', reason: 'x' })).status,
      400,
    );
    assert.equal(
      (await r.post('alice', '/v1/admin/rewards/review-cases', { targetType: 'STORY', targetId: storyId, reason: 'x' })).status,
      403,
    );
  });

  test("search's review-case filters find real cases (public view without target or reason)", async () => {
    const c = await open();
    await act(c.id, 'assign', { assigneeActorId: 'reviewer-9' });
    const found = await r.client.get<Json>('/v1/search', { status: 'IN_REVIEW', assignedToActorId: 'reviewer-9' });
    assert.equal(found.status, 200);
    assert.deepEqual(
      found.body.reviewCases.items.map((i: Json) => [i.id, i.status, i.queue, i.targetType]),
      [[c.id, 'IN_REVIEW', 'PENDING', 'STORY']],
    );
    assert.equal('targetId' in found.body.reviewCases.items[0], false);
    assert.equal('reason' in found.body.reviewCases.items[0], false);
    const resolved = await r.client.get<Json>('/v1/search', { queue: 'RESOLVED' });
    assert.ok(resolved.body.reviewCases.items.length >= 1);
    assert.ok(resolved.body.reviewCases.items.every((i: Json) => i.queue === 'RESOLVED'));
    assert.deepEqual((await r.client.get<Json>('/v1/search', { targetType: 'BATCH' })).body.reviewCases.items, []);
  });

  test('a case names a claim batch that exists, like every other target (400 on /targetId otherwise)', async () => {
    const missing = await r.post('treasurer', '/v1/admin/rewards/review-cases', {
      targetType: 'BATCH',
      targetId: 'cb_missing',
      reason: 'x',
    });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.details[0].path, '/targetId');
    await r.t.db.database.db
      .insertInto('claim_batches')
      .values({
        id: 'cb_review_target',
        chain_batch_id: `0x${'1'.repeat(64)}`,
        merkle_root: `0x${'2'.repeat(64)}`,
        distributor_address: null,
        total_base: '1000',
        token_decimals: 18,
        leaf_count: 1,
        payout_count: 1,
        claim_deadline: new Date(Date.now() + 86_400_000),
        status: 'ACTIVE',
        finalized_by: 'h_treasurer',
        created_at: new Date(),
        updated_at: new Date(),
      })
      .execute();
    const found = await r.post('treasurer', '/v1/admin/rewards/review-cases', {
      targetType: 'BATCH',
      targetId: 'cb_review_target',
      reason: 'odd leaves',
    });
    assert.equal(found.status, 202, JSON.stringify(found.body));
  });

  test('the state machine: closed cases only reopen by appeal; every move lands in a known state', () => {
    const statuses: ReviewCaseStatus[] = ['OPEN', 'IN_REVIEW', 'APPEALED', 'ESCALATED', 'RESOLVED', 'DISMISSED'];
    const moves: CaseMove[] = ['assign', 'escalate', 'appeal', 'resolve', 'dismiss'];
    fc.assert(
      fc.property(fc.constantFrom(...statuses), fc.array(fc.constantFrom(...moves), { maxLength: 30 }), (start, path) => {
        let state = start;
        for (const move of path) {
          const next = nextCaseStatus(state, move);
          if (next === null) continue;
          if (state === 'RESOLVED' || state === 'DISMISSED') assert.equal(move, 'appeal');
          if (move === 'resolve') assert.equal(next, 'RESOLVED');
          assert.ok(statuses.includes(next));
          state = next;
        }
      }),
    );
  });
});

describe('the recipient behind a cluster member', () => {
  let r: RewardsApp;
  before(async () => (r = await rewardsApp()));
  after(async () => r.t.close());

  test("a reader's recipient is found by their own actor id or through the person another of their actors is bound to", async () => {
    const recipientId = await bindWallet(r, 'carol');
    // the same person signed in elsewhere: identity binds that actor to carol's linked human
    await bindActor(r.t.db.database, 'carol-elsewhere', PEOPLE.carol.linkedHumanId);
    const review = createServices(r.t.app.ctx).rewards.review;
    const expected = { recipientId, linkedHumanId: PEOPLE.carol.linkedHumanId, frozen: false };
    assert.deepEqual(await review.recipientOf({ kind: 'actor', id: 'carol' }), expected);
    assert.deepEqual(await review.recipientOf({ kind: 'actor', id: 'carol-elsewhere' }), expected);
    // an actor bound to nobody, or to a person who is no recipient, has nothing to freeze
    assert.equal(await review.recipientOf({ kind: 'actor', id: 'nobody' }), null);
    assert.equal(await review.recipientOf({ kind: 'actor', id: PEOPLE.bob.actorId }), null);
  });
});
