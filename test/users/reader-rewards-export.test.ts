import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { generateAgentKey } from '../../sdk/index.js';
import { linkedHumanIdOf, newWallet, signedWithProof } from '../agents/support.js';
import { createTestApp } from '../helpers/app.js';
import { bindActor } from '../helpers/identity.js';
import { newsroomClient } from '../helpers/newsroom.js';
import { identityClient } from '../identity/identity-helpers.js';
import type { Json } from '../helpers/json.js';
import { readerAs } from './reader-helpers.js';

/**
 * The rewards sections of the data export (docs/reader-accounts.md), with real data made through signed HTTP:
 * a reader who verified a bot with an AgentKit wallet, voted and flagged, was paid by a settlement, accepted the
 * payout terms and bound a wallet (viem signs the challenge), then was frozen.
 */
describe('the export holds the reader’s rewards records', () => {
  test('recipient, wallet binding, wallet challenges (no message), payouts, paid-action usage and the verified bot’s wallet', async () => {
    const owner = newWallet();
    const t = await createTestApp({
      REWARDS_ADMIN_IDS: 'h_treasurer',
      AGENTBOOK_MODE: 'static',
      AGENTBOOK_STATIC: JSON.stringify({ [owner.account.address]: owner.humanId }),
      RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '100000',
    });
    try {
      const newsroom = newsroomClient(await t.listen());
      const { client } = newsroom;
      await bindActor(t.db.database, 'treasurer', 'h_treasurer', 'L3');
      const treasurer = readerAs(client, 'treasurer', { verified: true, linkedHumanId: 'h_treasurer' });
      // Alice is the person behind an AgentKit wallet: her actor is bound to the linked human it derives
      const linkedHumanId = linkedHumanIdOf(owner.humanId);
      await bindActor(t.db.database, 'reader-alice', linkedHumanId, 'L3');
      const alice = readerAs(client, 'reader-alice', { verified: true, linkedHumanId });
      const ok = (res: { status: number; body: unknown }, status = 202) => assert.equal(res.status, status, JSON.stringify(res.body));

      // her bot joins, is verified with her wallet, and writes a story
      const bot = generateAgentKey();
      ok(await client.agentWrite(bot, '/v1/agents/join', { publicKey: bot.publicKey, name: 'alice-bot' }));
      const verified = await signedWithProof(t.app, {
        key: bot,
        path: '/v1/agents/verify',
        body: { botId: bot.botId },
        origin: t.config.worldAgentkitResourceOrigins[0]!,
        wallet: owner.account,
      });
      ok(verified);
      const candidate = await newsroom.submit(bot);
      assert.equal((await newsroom.publish(candidate.hash)).body.decision, 'ALLOW');
      const storyId = candidate.storyId;
      const claimId = candidate.packet.claims[0]!.id;

      // she votes for it (a paid action) and challenges a claim (HIGH flag: the story goes UNDER_REVIEW)
      const identity = identityClient(client);
      ok(await identity.verifyAction('reader-alice', `reward:${storyId}`, { linkedHumanId }));
      ok(await alice.write(`/v1/stories/${storyId}/reward-votes`, { vote: 'UP' }));
      ok(await identity.verifyAction('reader-alice', `flag_high_severity:${claimId}`, { linkedHumanId }));
      ok(await alice.write(`/v1/stories/${storyId}/flags`, { severity: 'HIGH', reason: 'wrong date', claimId }));

      // the reward window passes (the one thing not played over HTTP), and the treasurer settles it
      await t.db.database.db
        .updateTable('stories')
        .set({ reward_window_ends_at: new Date(Date.now() - 60_000) })
        .where('id', '=', storyId)
        .execute();
      const run = await treasurer.write('/v1/rewards/settlements/run', { totalPoolOrbs: 100 });
      ok(run);

      // payout terms, a challenge she never uses, and one she signs with her payout wallet
      ok(await alice.write('/v1/rewards/recipient', { acceptTerms: true, termsVersion: '2026-11' }));
      const payoutWallet = privateKeyToAccount(generatePrivateKey());
      const unused = await alice.write('/v1/rewards/wallets/challenge', { address: payoutWallet.address, chainId: 10 });
      ok(unused, 200);
      const challenge = await alice.write('/v1/rewards/wallets/challenge', { address: payoutWallet.address, chainId: 1 });
      ok(challenge, 200);
      const signature = await payoutWallet.signMessage({ message: challenge.body.message });
      const bound = await alice.write('/v1/rewards/wallets/verify', { challengeId: challenge.body.challengeId, signature });
      ok(bound);
      assert.equal(bound.body.payoutsReleased, 3);

      const exported = await alice.export();
      assert.equal(exported.status, 200, JSON.stringify(exported.body));
      const s = exported.body.sections;
      assert.equal(exported.body.schemaVersion, 1);
      assert.deepEqual(Object.keys(s).slice(-5), ['rewardRecipient', 'walletBindings', 'walletChallenges', 'payouts', 'paidActionUsage']);

      const [agent] = s.identity.linkedAgents;
      assert.equal(agent.botId, bot.botId);
      assert.equal(agent.trustTier, 'VERIFIED');
      assert.equal(agent.walletAddress, owner.account.address);
      assert.equal(agent.walletChainId, verified.body.walletChainId);
      assert.ok(agent.walletChainId);

      const r = s.rewardRecipient;
      assert.deepEqual(
        [r.actorId, r.termsVersion, r.state, r.frozenAt, r.frozenReason],
        ['reader-alice', '2026-11', 'WALLET_VERIFIED', null, null],
      );
      assert.deepEqual(
        s.walletBindings.map((w: Json) => [w.address, w.chainId, typeof w.boundAt]),
        [[payoutWallet.address, 1, 'string']],
      );
      assert.deepEqual(
        s.walletChallenges.map((c: Json) => [c.id, c.address, c.chainId, c.usedAt === null]),
        [
          [unused.body.challengeId, payoutWallet.address, 10, true],
          [challenge.body.challengeId, payoutWallet.address, 1, false],
        ],
      );
      assert.deepEqual(
        s.payouts.map((p: Json) => [p.storyId, p.role, p.beneficiaryKind, p.beneficiaryId, p.botId, p.status, p.tokenDecimals]).sort(),
        [
          [storyId, 'RISK', 'HUMAN', linkedHumanId, null, 'PAYABLE', 18],
          [storyId, 'WRITER', 'BOT', bot.botId, bot.botId, 'PAYABLE', 18],
          [storyId, 'SOURCE_DIVERSITY', 'BOT', bot.botId, bot.botId, 'PAYABLE', 18],
        ].sort(),
      );
      const total = s.payouts.reduce((a: bigint, p: Json) => a + BigInt(p.amountBase), 0n);
      assert.ok(total > 0n);
      for (const p of s.payouts) assert.equal(p.settlementId, run.body.id);
      assert.deepEqual(s.paidActionUsage, [{ day: new Date().toISOString().slice(0, 10), countedAs: 'linkedHuman', used: 1 }]);

      const text = JSON.stringify(exported.body);
      assert.ok(!text.includes(signature.slice(2, 40)), 'no wallet signature');
      const nonce = /Nonce: (\S+)/.exec(challenge.body.message)![1]!;
      assert.ok(!text.includes(nonce), 'no challenge nonce or message');
      assert.doesNotMatch(text, /"(nonce|message|signature)"/);

      // frozen by the treasurer: the state and reason are hers to see, who froze it is not in the export
      ok(await treasurer.write(`/v1/admin/rewards/recipients/${r.id}/freeze`, { reason: 'sybil review' }));
      const frozen = (await alice.export()).body.sections;
      assert.deepEqual([frozen.rewardRecipient.state, frozen.rewardRecipient.frozenReason], ['FROZEN', 'sybil review']);
      assert.ok(!JSON.stringify(frozen.rewardRecipient).includes('treasurer'));
      assert.deepEqual(new Set(frozen.payouts.map((p: Json) => p.status)), new Set(['FROZEN']));

      // another reader's export has none of it
      const bob = readerAs(client, 'reader-bob', { verified: false });
      const other = (await bob.export()).body.sections;
      assert.deepEqual(
        [other.rewardRecipient, other.walletBindings, other.walletChallenges, other.payouts, other.paidActionUsage],
        [null, [], [], [], []],
      );
    } finally {
      await t.close();
    }
  });
});
