import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { TEST_SECRET } from '../helpers/app.js';
import { needsPostgres } from '../helpers/needs.js';
import { workedExample, rewardsApp, type RewardsApp } from './support.js';
import type { Json } from '../helpers/json.js';

describe('payout recipients and wallet binding', () => {
  let r: RewardsApp;
  before(async () => (r = await rewardsApp({ REWARDS_DAILY_PAID_ACTIONS_L0: '2' })));
  after(async () => r.t.close());

  const terms = async (who: 'alice' | 'bob' | 'carol', extra: Json = {}) => {
    const elig = await r.get('alice', '/v1/rewards/eligibility', { userId: 'alice' });
    return r.post(who, '/v1/rewards/recipient', { acceptTerms: true, termsVersion: elig.body.terms.version, ...extra });
  };

  test('accepting the payout terms needs an L3 identity', async () => {
    const l2 = await terms('bob');
    assert.equal(l2.status, 409);
    assert.equal(l2.body.code, 'RECIPIENT_IDENTITY_REQUIRED');
    const unverified = await r.client.humanWrite<Json>(TEST_SECRET, '/v1/rewards/recipient', {
      actorId: 'alice',
      verified: false,
      linkedHumanId: 'h_alice',
      acceptTerms: true,
      termsVersion: '2026-11',
    });
    assert.equal(unverified.body.code, 'RECIPIENT_IDENTITY_REQUIRED');
    assert.equal((await terms('alice', { termsVersion: '1999-01' })).status, 400);
    const ok = await terms('alice');
    assert.equal(ok.status, 202, JSON.stringify(ok.body));
    assert.equal(ok.body.linkedHumanId, 'h_alice');
    assert.equal(ok.body.wallet, null);
    // accepting again updates the same recipient
    assert.equal((await terms('alice')).body.id, ok.body.id);
  });

  test('a wallet is bound by signing the SIWE challenge (EIP-191); the challenge works once', async () => {
    const ex = await workedExample(r, { a: 'h_alice' }); // alice owns the writer bot
    const run = await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 1000 });
    assert.equal(run.status, 202);
    const waiting = await r.get('treasurer', '/v1/rewards/payouts', { botId: ex.a });
    assert.ok(waiting.body.items.every((p: Json) => p.status === 'PENDING_RECIPIENT'));

    const wallet = privateKeyToAccount(generatePrivateKey());
    const noRecipient = await r.post('carol', '/v1/rewards/wallets/challenge', { address: wallet.address, chainId: 8453 });
    assert.equal(noRecipient.status, 409);
    assert.equal(noRecipient.body.code, 'RECIPIENT_REQUIRED');

    const challenge = await r.post('alice', '/v1/rewards/wallets/challenge', { address: wallet.address, chainId: 8453 });
    assert.equal(challenge.status, 200, JSON.stringify(challenge.body));
    assert.match(challenge.body.message, /wants you to sign in with your Ethereum account/);
    assert.match(challenge.body.message, new RegExp(`Chain ID: 8453`));
    assert.ok(challenge.body.message.includes(wallet.address));

    // another wallet's signature over the same message does not bind
    const impostor = privateKeyToAccount(generatePrivateKey());
    const forged = await r.post('alice', '/v1/rewards/wallets/verify', {
      challengeId: challenge.body.challengeId,
      signature: await impostor.signMessage({ message: challenge.body.message }),
    });
    assert.equal(forged.status, 400);
    assert.equal(forged.body.code, 'WALLET_SIGNATURE_INVALID');
    // carol cannot use alice's challenge
    const signature = await wallet.signMessage({ message: challenge.body.message });
    assert.equal((await r.post('carol', '/v1/rewards/wallets/verify', { challengeId: challenge.body.challengeId, signature })).status, 409);

    const verified = await r.post('alice', '/v1/rewards/wallets/verify', { challengeId: challenge.body.challengeId, signature });
    assert.equal(verified.status, 202, JSON.stringify(verified.body));
    assert.equal(verified.body.wallet.address, wallet.address);
    assert.equal(verified.body.payoutsReleased, 2);
    const again = await r.post('alice', '/v1/rewards/wallets/verify', { challengeId: challenge.body.challengeId, signature });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'WALLET_CHALLENGE_USED');
    // the writer bot's payouts that waited for a wallet are payable now
    const payable = await r.get('treasurer', '/v1/rewards/payouts', { botId: ex.a });
    assert.deepEqual(
      payable.body.items.map((p: Json) => p.status),
      ['PAYABLE', 'PAYABLE'],
    );
  });

  test('a wallet challenge lives 5 minutes', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const challenge = await r.post('alice', '/v1/rewards/wallets/challenge', { address: wallet.address, chainId: 10 });
    assert.equal(challenge.status, 200);
    const lifetime = Date.parse(challenge.body.expiresAt) - Date.now();
    assert.ok(lifetime > 4 * 60_000 && lifetime <= 5 * 60_000, String(lifetime));
    assert.match(challenge.body.message, /Expiration Time: /);
    // the challenge's time has passed (as the database records it)
    await r.db
      .updateTable('reward_wallet_challenges')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', challenge.body.challengeId)
      .execute();
    const late = await r.post('alice', '/v1/rewards/wallets/verify', {
      challengeId: challenge.body.challengeId,
      signature: await wallet.signMessage({ message: challenge.body.message }),
    });
    assert.equal(late.status, 409);
    assert.equal(late.body.code, 'WALLET_CHALLENGE_EXPIRED');
  });

  test('eligibility, budget and dashboard are for the signed caller only', async () => {
    const other = await r.get('alice', '/v1/rewards/eligibility', { userId: 'bob' });
    assert.equal(other.status, 403);
    assert.equal(other.body.code, 'USER_MISMATCH');
    for (const path of ['/v1/rewards/budget', '/v1/rewards/dashboard']) {
      assert.equal((await r.get('alice', path, { userId: 'carol' })).status, 403);
      assert.equal((await r.get('alice', path, {})).status, 400);
    }
    const unsigned = await r.client.get<Json>('/v1/rewards/eligibility', { userId: 'alice', actorId: 'alice', verified: 'true' });
    assert.equal(unsigned.status, 401);

    const alice = await r.get('alice', '/v1/rewards/eligibility', { userId: 'alice' });
    assert.equal(alice.status, 200);
    assert.deepEqual(alice.body.monetaryRewards, { eligible: true, reasons: [] });
    assert.equal(alice.body.rewardVotes.weight, 3);
    const bob = await r.get('bob', '/v1/rewards/eligibility', { userId: 'bob' });
    assert.equal(bob.body.tier, 'L2');
    assert.deepEqual(bob.body.monetaryRewards.reasons, ['L3_IDENTITY_REQUIRED', 'TERMS_NOT_ACCEPTED', 'WALLET_NOT_VERIFIED']);

    const dash = await r.get('alice', '/v1/rewards/dashboard', { userId: 'alice' });
    assert.equal(dash.status, 200, JSON.stringify(dash.body));
    assert.equal(dash.body.payouts.PAYABLE.count, 2);
    assert.equal(dash.body.payouts.PAYABLE.amount.display, '540');
    assert.equal(dash.body.bots.length, 1);
  });

  test('the daily budget really limits reward votes', async () => {
    const stories = [await r.f.story(), await r.f.story(), await r.f.story()];
    const vote = (storyId: string) =>
      r.client.humanWrite<Json>(TEST_SECRET, `/v1/stories/${storyId}/reward-votes`, { actorId: 'dave', verified: false, vote: 'UP' });
    assert.equal((await vote(stories[0]!.id)).status, 202);
    assert.equal((await vote(stories[1]!.id)).status, 202);
    const refused = await vote(stories[2]!.id);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'PAID_ACTION_BUDGET_EXHAUSTED');
    assert.ok(refused.body.retryAfterSeconds > 0);
    const budget = await r.client.humanRead<Json>(TEST_SECRET, '/v1/rewards/budget', {
      actorId: 'dave',
      verified: 'false',
      userId: 'dave',
    });
    assert.deepEqual(
      { limit: budget.body.limit, used: budget.body.used, remaining: budget.body.remaining, tier: budget.body.tier },
      { limit: 2, used: 2, remaining: 0, tier: 'L0' },
    );
    // a refused vote recorded nothing
    assert.equal(
      Number(
        (
          await r.db
            .selectFrom('reward_votes')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('actor_id', '=', 'dave')
            .executeTakeFirstOrThrow()
        ).n,
      ),
      2,
    );
  });

  test(
    'concurrent votes cannot overspend the budget',
    { skip: needsPostgres('concurrent transactions need real PostgreSQL') },
    async () => {
      const stories = await Promise.all([1, 2, 3, 4, 5].map(() => r.f.story()));
      const results = await Promise.all(
        stories.map((s) =>
          r.client.humanWrite<Json>(TEST_SECRET, `/v1/stories/${s.id}/reward-votes`, { actorId: 'erin', verified: false, vote: 'UP' }),
        ),
      );
      assert.equal(results.filter((res) => res.status === 202).length, 2);
      assert.equal(results.filter((res) => res.status === 429).length, 3);
    },
  );
});
