import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { generateAgentKey, type AgentKey } from '../../sdk/index.js';
import { TEST_SECRET } from '../helpers/app.js';
import { bindActor } from '../helpers/identity.js';
import { linkedHumanIdOf, newWallet, signedWithProof } from '../agents/support.js';
import { identityClient } from '../identity/identity-helpers.js';
import { integrityApp, plantedNewsroom, type IntegrityApp } from './support.js';
import type { Json } from '../helpers/json.js';

/**
 * Cartel analysis holds payouts (docs/rewards.md "Cartel holds"): the newsroom is played through signed
 * requests, the analysis route flags the planted ring, and a settlement of the closed windows creates the
 * payouts of the flagged members (bots by bot id, readers by actor id or linked human, bots owned by a flagged
 * reader) in REVIEW, where the review queue shows them; everyone else is PAYABLE or PENDING_RECIPIENT.
 */

const owner = newWallet();
const ENV = {
  REWARDS_ADMIN_IDS: 'h_admin',
  AGENTBOOK_MODE: 'static',
  AGENTBOOK_STATIC: JSON.stringify({ [owner.account.address]: owner.humanId }),
};

/** The 72-hour reward windows pass: every published story's window has closed (the one thing not played over HTTP). */
async function closeRewardWindows(ia: IntegrityApp) {
  await ia.g.t.db.database.db
    .updateTable('stories')
    .set({ reward_window_ends_at: new Date(Date.now() - 60_000) })
    .where('published_at', 'is not', null)
    .execute();
}

async function settle(ia: IntegrityApp) {
  const run = await ia.g.post<Json>('admin', '/v1/rewards/settlements/run', { totalPoolOrbs: 1000 });
  assert.equal(run.status, 202, JSON.stringify(run.body));
  const payouts = await ia.g.get<Json>('admin', '/v1/rewards/payouts', { settlementId: run.body.id, limit: '500' });
  assert.equal(payouts.status, 200, JSON.stringify(payouts.body));
  assert.equal(payouts.body.nextCursor, undefined);
  return payouts.body.items as Json[];
}

const statusesOf = (payouts: Json[], kind: 'BOT' | 'HUMAN', id: string) =>
  new Set(payouts.filter((p) => p.beneficiaryKind === kind && p.beneficiaryId === id).map((p) => p.status));

describe('cartel analysis holds payouts for review', () => {
  test('payouts of the flagged ring, its readers and the bots they own are created in REVIEW and queued; honest ones are not', async () => {
    const ia = await integrityApp(ENV);
    try {
      const { ring, honest, readerRing, popular } = await plantedNewsroom(ia);
      const analysis = await ia.analyze();
      assert.equal(analysis.status, 200, JSON.stringify(analysis.body));
      const flagged = new Set<string>(analysis.body.clusters.flatMap((c: Json) => c.members));
      for (const m of [...ring.map((b) => b.botId), ...readerRing]) assert.ok(flagged.has(m), `${m} flagged`);

      // A flagged reader is the person behind an honest bot: the bot is verified with their AgentKit wallet,
      // and the reader's actor is bound to the same linked human.
      const ownedBot: AgentKey = generateAgentKey();
      assert.equal(
        (await ia.n.client.agentWrite(ownedBot, '/v1/agents/join', { publicKey: ownedBot.publicKey, name: 'owned' })).status,
        202,
      );
      const verify = await signedWithProof(ia.g.t.app, {
        key: ownedBot,
        path: '/v1/agents/verify',
        body: { botId: ownedBot.botId },
        origin: ia.g.t.config.worldAgentkitResourceOrigins[0]!,
        wallet: owner.account,
      });
      assert.equal(verify.status, 202, JSON.stringify(verify.body));
      const flaggedHuman = linkedHumanIdOf(owner.humanId);
      await bindActor(ia.g.t.db.database, readerRing[0]!, flaggedHuman, 'L3');
      const ownedStory = (await ia.stories(ownedBot, 1))[0]!;
      await ia.upvote('honest-reader-0', ownedStory);

      // An honest reader (logged in with World ID, a recipient with a wallet) challenges the popular story with a
      // HIGH flag: it goes UNDER_REVIEW and every flag on it is upheld (RISK). Two ring readers flag it too, one
      // signing with the linked human it is bound to, one by actor id only.
      const id = identityClient(ia.g.client);
      const { linkedHumanId: honestHuman } = await id.login('honest-flagger');
      const story = popular[0]!;
      const proven = await id.verifyAction('honest-flagger', `flag_high_severity:${story.claimId}`, { linkedHumanId: honestHuman });
      assert.equal(proven.status, 202, JSON.stringify(proven.body));
      const flag = (actorId: string, body: Json) =>
        ia.g.client.humanWrite<Json>(TEST_SECRET, `/v1/stories/${story.storyId}/flags`, { actorId, verified: true, ...body });
      const high = await flag('honest-flagger', {
        linkedHumanId: honestHuman,
        severity: 'HIGH',
        reason: 'wrong date',
        claimId: story.claimId,
      });
      assert.equal(high.status, 202, JSON.stringify(high.body));
      assert.equal(high.body.reviewStatus, 'UNDER_REVIEW');
      assert.equal((await flag(readerRing[0]!, { linkedHumanId: flaggedHuman, severity: 'LOW', reason: 'agree' })).status, 202);
      assert.equal((await flag(readerRing[1]!, { verified: false, severity: 'LOW', reason: 'agree' })).status, 202);

      const recipient = (path: string, body: Json) =>
        ia.g.client.humanWrite<Json>(TEST_SECRET, path, { actorId: 'honest-flagger', verified: true, linkedHumanId: honestHuman, ...body });
      assert.equal((await recipient('/v1/rewards/recipient', { acceptTerms: true, termsVersion: '2026-11' })).status, 202);
      const wallet = privateKeyToAccount(generatePrivateKey());
      const challenge = await recipient('/v1/rewards/wallets/challenge', { address: wallet.address, chainId: 1 });
      const bound = await recipient('/v1/rewards/wallets/verify', {
        challengeId: challenge.body.challengeId,
        signature: await wallet.signMessage({ message: challenge.body.message }),
      });
      assert.equal(bound.status, 202, JSON.stringify(bound.body));

      await closeRewardWindows(ia);
      const preview = await ia.g.get<Json>('admin', '/v1/rewards/settlements/preview', { totalPoolOrbs: '1000' });
      assert.equal(preview.status, 200, JSON.stringify(preview.body));
      const previewed = preview.body.beneficiaries.find((b: Json) => b.beneficiaryId === ring[0]!.botId);
      assert.equal(previewed.payableAmount.base, '0', 'a preview counts held payouts as not payable');
      const honestPreviewed = preview.body.beneficiaries.find((b: Json) => b.beneficiaryId === honestHuman);
      assert.ok(BigInt(honestPreviewed.amount.base) > 0n);
      assert.equal(
        honestPreviewed.payableAmount.base,
        honestPreviewed.amount.base,
        'a preview counts a recipient with a wallet as payable',
      );

      const payouts = await settle(ia);
      for (const bot of ring) assert.deepEqual(statusesOf(payouts, 'BOT', bot.botId), new Set(['REVIEW']), 'a flagged bot');
      assert.deepEqual(statusesOf(payouts, 'BOT', ownedBot.botId), new Set(['REVIEW']), 'a bot owned by a flagged reader');
      assert.deepEqual(statusesOf(payouts, 'HUMAN', flaggedHuman), new Set(['REVIEW']), 'a flagged reader by linked human');
      assert.deepEqual(statusesOf(payouts, 'HUMAN', readerRing[1]!), new Set(['REVIEW']), 'a flagged reader by actor id');
      assert.deepEqual(statusesOf(payouts, 'HUMAN', honestHuman), new Set(['PAYABLE']), 'an honest recipient with a wallet');
      const honestBots = new Set(honest.map((b) => b.botId));
      const honestPaid = payouts.filter((p) => p.beneficiaryKind === 'BOT' && honestBots.has(p.beneficiaryId));
      assert.ok(honestPaid.length > 0);
      for (const p of honestPaid) assert.equal(p.status, 'PENDING_RECIPIENT', `honest bot ${p.beneficiaryId}`);

      const held = payouts.filter((p) => p.status === 'REVIEW');
      for (const p of held) assert.equal(p.statusReason, 'CARTEL_CLUSTER');
      const queue = await ia.g.get<Json>('admin', '/v1/admin/rewards/review-queue', { limit: '100' });
      assert.equal(queue.status, 200, JSON.stringify(queue.body));
      const queued = queue.body.items.filter((i: Json) => i.kind === 'HELD_PAYOUT');
      assert.deepEqual(new Set(queued.map((i: Json) => i.targetId)), new Set(held.map((p) => p.id)));
      for (const i of queued) assert.equal(i.reason, 'CARTEL_CLUSTER');
    } finally {
      await ia.g.t.close();
    }
  });

  test('without an analysis nothing is held, and a later analysis that flags nobody holds nobody', async () => {
    const ia = await integrityApp(ENV);
    try {
      const { ring } = await plantedNewsroom(ia);
      await closeRewardWindows(ia);
      const first = await settle(ia);
      assert.ok(first.length > 0);
      assert.ok(first.some((p) => p.beneficiaryId === ring[0]!.botId));
      assert.deepEqual(new Set(first.map((p) => p.status)), new Set(['PENDING_RECIPIENT']));

      // an analysis of a window with nothing in it (the latest counts, whatever came before): still nobody held
      const flaggedEarlier = await ia.analyze();
      assert.equal(flaggedEarlier.status, 200);
      assert.ok(flaggedEarlier.body.clusters.length > 0);
      const empty = await ia.analyze({ windowDays: 1, minClusterSize: 50 });
      assert.equal(empty.status, 200, JSON.stringify(empty.body));
      assert.equal(empty.body.clusters.length, 0);
      const more = await ia.stories(ring[0]!, 1);
      await ia.upvote('ring-reader-0', more[0]!);
      await closeRewardWindows(ia);
      const second = await settle(ia);
      assert.ok(second.some((p) => p.beneficiaryId === ring[0]!.botId));
      assert.deepEqual(new Set(second.map((p) => p.status)), new Set(['PENDING_RECIPIENT']));
    } finally {
      await ia.g.t.close();
    }
  });
});
