import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { main as agentCli } from '../../sdk/cli.js';
import {
  agentKeySeed,
  createAgentClient,
  generateAgentKey,
  signBotOwnerClaim,
  signBotOwnerConsent,
  type AgentKey,
  type BotOwnerChallenge,
  type HumanActor,
} from '../../sdk/index.js';
import { freezeRecipientPayouts } from '../../src/rewards/review/repository.js';
import { TEST_SECRET } from '../helpers/app.js';
import { bindActor } from '../helpers/identity.js';
import { needsPostgres } from '../helpers/needs.js';
import { HOUR_MS } from '../helpers/newsroom-factory.js';
import { startAgentBookChain } from '../helpers/local-evm.js';
import { identityClient } from '../identity/identity-helpers.js';
import { closedStory, rewardsApp, rewardVote, type RewardsApp } from './support.js';
import type { Json } from '../helpers/json.js';

/**
 * Owning a bot, end to end against AgentBook on a local EVM (rpc mode): the bot joins and verifies with an
 * agentproof through the SDK, a person logs in with World ID (dev proofs), binds a payout wallet, and claims the
 * bot with its wallet's SIWE signature and its Ed25519 consent; the bot's waiting payouts become theirs.
 */
describe('bot owners: a person claims a verified bot and is paid its payouts', () => {
  let chain: Awaited<ReturnType<typeof startAgentBookChain>>;
  let r: RewardsApp;
  let id: ReturnType<typeof identityClient>;
  let origin: string;

  before(async () => {
    chain = await startAgentBookChain();
    r = await rewardsApp({ AGENTBOOK_MODE: 'rpc', AGENTBOOK_RPC_URL: chain.rpcUrl, AGENTBOOK_CONTRACT: chain.contract });
    id = identityClient(r.client);
    origin = r.t.config.worldAgentkitResourceOrigins[0]!;
  });
  after(async () => {
    await r.t.close();
    await chain.close();
  });

  interface Person {
    actor: HumanActor & { linkedHumanId: string };
    recipientId?: string;
  }

  /** A person logged in with World ID (L3); with `wallet`, also a payout recipient with a verified wallet. */
  async function person(options: { wallet?: boolean } = {}): Promise<Person> {
    const actorId = `owner-${randomBytes(4).toString('hex')}`;
    const session = await id.login(actorId);
    const actor = { actorId, verified: true, linkedHumanId: session.linkedHumanId };
    if (!options.wallet) return { actor };
    const terms = await r.client.humanWrite<Json>(TEST_SECRET, '/v1/rewards/recipient', {
      ...actor,
      acceptTerms: true,
      termsVersion: '2026-11',
    });
    assert.equal(terms.status, 202, JSON.stringify(terms.body));
    const payoutWallet = privateKeyToAccount(generatePrivateKey());
    const challenge = await r.client.humanWrite<Json>(TEST_SECRET, '/v1/rewards/wallets/challenge', {
      ...actor,
      address: payoutWallet.address,
      chainId: 480,
    });
    const bound = await r.client.humanWrite<Json>(TEST_SECRET, '/v1/rewards/wallets/verify', {
      ...actor,
      challengeId: challenge.body.challengeId,
      signature: await payoutWallet.signMessage({ message: challenge.body.message }),
    });
    assert.equal(bound.status, 202, JSON.stringify(bound.body));
    return { actor, recipientId: terms.body.id };
  }

  interface Bot {
    key: AgentKey;
    wallet: PrivateKeyAccount;
    walletKey: `0x${string}`;
    botId: string;
    agentBookHuman: string;
  }

  /** A bot that joined and verified through the SDK with a wallet registered in AgentBook on the chain. */
  async function verifiedBot(): Promise<Bot> {
    const key = generateAgentKey();
    const walletKey = generatePrivateKey();
    const wallet = privateKeyToAccount(walletKey);
    await chain.register(wallet.address, BigInt(`0x${randomBytes(16).toString('hex')}`));
    const client = createAgentClient({ baseUrl: r.t.baseUrl, key, wallet, proofOrigin: origin });
    await client.join({ name: `owned ${key.botId.slice(4, 10)}` });
    const bot = await client.verify();
    assert.equal(bot.trustTier, 'VERIFIED');
    return { key, wallet, walletKey, botId: key.botId, agentBookHuman: bot.linkedHumanId! };
  }

  /** A closed story the bot wrote, one UP reward vote, and a settlement run: the bot gets payouts. */
  async function settleWorkOf(botId: string): Promise<void> {
    const story = await closedStory(r, { authorBotId: botId, createdAt: new Date(Date.now() - 100 * HOUR_MS) });
    await rewardVote(r.db, story.id, `voter-${randomBytes(3).toString('hex')}`, 'UP', 1);
    const run = await r.post('treasurer', '/v1/rewards/settlements/run', { totalPoolOrbs: 100 });
    assert.equal(run.status, 202, JSON.stringify(run.body));
  }

  const payoutsOf = async (botId: string) => (await r.get('treasurer', '/v1/rewards/payouts', { botId })).body.items as Json[];

  const challenge = (who: Person, botId: string, walletAddress: string) =>
    r.client.humanWrite<BotOwnerChallenge & Json>(TEST_SECRET, '/v1/rewards/bot-owners/challenge', { ...who.actor, botId, walletAddress });

  const claim = (who: Person, body: Json) =>
    r.client.humanWrite<Json>(TEST_SECRET, '/v1/rewards/bot-owners/claim', { ...who.actor, ...body });

  /** Challenge, both signatures through the SDK, claim. */
  async function claimBot(who: Person, bot: Bot) {
    const c = await challenge(who, bot.botId, bot.wallet.address);
    assert.equal(c.status, 200, JSON.stringify(c.body));
    const signatures = await signBotOwnerClaim({
      key: bot.key,
      wallet: bot.wallet,
      challenge: c.body,
      expectedOwner: who.actor.linkedHumanId,
    });
    return claim(who, signatures);
  }

  test("the claim makes the bot's waiting payouts the owner's (payable) and later payouts are paid to them", async () => {
    const bot = await verifiedBot();
    const alice = await person({ wallet: true });
    assert.notEqual(bot.agentBookHuman, alice.actor.linkedHumanId, 'AgentBook and World ID name the person differently');

    await settleWorkOf(bot.botId);
    const waiting = await payoutsOf(bot.botId);
    assert.ok(waiting.length >= 1);
    assert.ok(
      waiting.every((p) => p.status === 'PENDING_RECIPIENT' && p.linkedHumanId === bot.agentBookHuman),
      JSON.stringify(waiting),
    );

    const c = await challenge(alice, bot.botId, bot.wallet.address.toLowerCase());
    assert.equal(c.status, 200, JSON.stringify(c.body));
    assert.equal(c.body.walletAddress, bot.wallet.address);
    assert.equal(c.body.ownerLinkedHumanId, alice.actor.linkedHumanId);
    assert.match(c.body.message, /wants you to sign in with your Ethereum account/);
    assert.ok(
      c.body.message.includes(`urn:newsroom:bot:${bot.botId}`) &&
        c.body.message.includes(`urn:newsroom:human:${alice.actor.linkedHumanId}`),
    );
    assert.match(c.body.message, /Chain ID: 480/);
    assert.equal(
      c.body.consentMessage,
      `svc-agent-owner-v1:svc.${c.body.challengeId}.${bot.botId}.${alice.actor.linkedHumanId}.${bot.wallet.address}`,
    );

    const claimed = await claim(alice, await signBotOwnerClaim({ key: bot.key, wallet: bot.wallet, challenge: c.body }));
    assert.equal(claimed.status, 202, JSON.stringify(claimed.body));
    assert.equal(claimed.body.ownerLinkedHumanId, alice.actor.linkedHumanId);
    assert.equal(claimed.body.payoutsAssigned, waiting.length);
    assert.equal(claimed.body.payoutsReleased, waiting.length);

    const released = await payoutsOf(bot.botId);
    for (const p of released) {
      assert.equal(p.status, 'PAYABLE');
      assert.equal(p.linkedHumanId, alice.actor.linkedHumanId);
      assert.equal(p.recipientId, alice.recipientId);
    }
    // the owner's dashboard lists the bot and its payable amount
    const dashboard = await r.client.humanRead<Json>(TEST_SECRET, '/v1/rewards/dashboard', {
      ...alice.actor,
      verified: 'true',
      userId: alice.actor.actorId,
    });
    assert.deepEqual(dashboard.body.bots, [bot.botId]);
    assert.equal(dashboard.body.payouts.PAYABLE.count, waiting.length);

    // the next settlement pays the bot's new payouts to alice straight away
    await settleWorkOf(bot.botId);
    const later = (await payoutsOf(bot.botId)).filter((p) => !released.some((q) => q.id === p.id));
    assert.ok(later.length >= 1);
    assert.ok(
      later.every((p) => p.status === 'PAYABLE' && p.linkedHumanId === alice.actor.linkedHumanId && p.recipientId === alice.recipientId),
      JSON.stringify(later),
    );

    // audited on the hash chain
    const audit = await r.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'bot_owner.claimed')
      .where('target', '=', bot.botId)
      .execute();
    assert.equal(audit.length, 1);
  });

  test('an owner without a payout wallet yet: the payouts wait for theirs, and binding the wallet releases them', async () => {
    const bot = await verifiedBot();
    await settleWorkOf(bot.botId);
    const carol = await person();
    const claimed = await claimBot(carol, bot);
    assert.equal(claimed.status, 202, JSON.stringify(claimed.body));
    assert.equal(claimed.body.payoutsReleased, 0);
    assert.ok(claimed.body.payoutsAssigned >= 1);
    const waiting = await payoutsOf(bot.botId);
    assert.ok(waiting.every((p) => p.status === 'PENDING_RECIPIENT' && p.linkedHumanId === carol.actor.linkedHumanId));

    const terms = await r.client.humanWrite<Json>(TEST_SECRET, '/v1/rewards/recipient', {
      ...carol.actor,
      acceptTerms: true,
      termsVersion: '2026-11',
    });
    const payoutWallet = privateKeyToAccount(generatePrivateKey());
    const c = await r.client.humanWrite<Json>(TEST_SECRET, '/v1/rewards/wallets/challenge', {
      ...carol.actor,
      address: payoutWallet.address,
      chainId: 1,
    });
    const bound = await r.client.humanWrite<Json>(TEST_SECRET, '/v1/rewards/wallets/verify', {
      ...carol.actor,
      challengeId: c.body.challengeId,
      signature: await payoutWallet.signMessage({ message: c.body.message }),
    });
    assert.equal(bound.body.payoutsReleased, waiting.length);
    assert.ok((await payoutsOf(bot.botId)).every((p) => p.status === 'PAYABLE' && p.recipientId === terms.body.id));
  });

  test("the AgentBook human binding a payout wallet does not take a claimed bot's payouts from its owner", async () => {
    const bot = await verifiedBot();
    const owner = await person();
    assert.equal((await claimBot(owner, bot)).status, 202);
    await settleWorkOf(bot.botId);
    const owned = await payoutsOf(bot.botId);
    assert.ok(owned.length >= 1 && owned.every((p) => p.status === 'PENDING_RECIPIENT' && p.linkedHumanId === owner.actor.linkedHumanId));
    // a person whose linkedHumanId is the bot's AgentBook-derived one (as with AGENTBOOK_MODE=static) binds a wallet
    const agentBookPerson: Person = {
      actor: { actorId: `ab-${randomBytes(3).toString('hex')}`, verified: true, linkedHumanId: bot.agentBookHuman },
    };
    await bindActor(r.t.db.database, agentBookPerson.actor.actorId, bot.agentBookHuman, 'L3');
    await r.client.humanWrite<Json>(TEST_SECRET, '/v1/rewards/recipient', {
      ...agentBookPerson.actor,
      acceptTerms: true,
      termsVersion: '2026-11',
    });
    const payoutWallet = privateKeyToAccount(generatePrivateKey());
    const c = await r.client.humanWrite<Json>(TEST_SECRET, '/v1/rewards/wallets/challenge', {
      ...agentBookPerson.actor,
      address: payoutWallet.address,
      chainId: 1,
    });
    const bound = await r.client.humanWrite<Json>(TEST_SECRET, '/v1/rewards/wallets/verify', {
      ...agentBookPerson.actor,
      challengeId: c.body.challengeId,
      signature: await payoutWallet.signMessage({ message: c.body.message }),
    });
    assert.equal(bound.status, 202, JSON.stringify(bound.body));
    assert.equal(bound.body.payoutsReleased, 0);
    assert.deepEqual(await payoutsOf(bot.botId), owned);
  });

  test('a frozen owner: the claimed payouts go to FROZEN, never around the freeze', async () => {
    const bot = await verifiedBot();
    await settleWorkOf(bot.botId);
    const dan = await person({ wallet: true });
    const freeze = await r.post('treasurer', `/v1/admin/rewards/recipients/${dan.recipientId}/freeze`, { reason: 'under review' });
    assert.equal(freeze.status, 202, JSON.stringify(freeze.body));
    const claimed = await claimBot(dan, bot);
    assert.equal(claimed.status, 202, JSON.stringify(claimed.body));
    assert.equal(claimed.body.payoutsReleased, 0);
    const payouts = await payoutsOf(bot.botId);
    assert.ok(payouts.length >= 1);
    assert.ok(
      payouts.every((p) => p.status === 'FROZEN' && p.statusReason === 'RECIPIENT_FROZEN'),
      JSON.stringify(payouts),
    );
  });

  test("payouts that became the owner's after their run follow the owner: frozen and unfrozen with them, not with the person before", async () => {
    const bot = await verifiedBot();
    await settleWorkOf(bot.botId);
    const erin = await person({ wallet: true });
    const claimed = await claimBot(erin, bot);
    assert.equal(claimed.status, 202, JSON.stringify(claimed.body));
    const theirs = await payoutsOf(bot.botId);
    assert.ok(theirs.length >= 1 && claimed.body.payoutsAssigned === theirs.length);
    assert.ok(theirs.every((p) => p.linkedHumanId === erin.actor.linkedHumanId && p.status === 'PAYABLE'));

    // the run recorded these payouts under the AgentBook human; the freeze of the owner they went to reaches them
    const freeze = await r.post('treasurer', `/v1/admin/rewards/recipients/${erin.recipientId}/freeze`, { reason: 'under review' });
    assert.equal(freeze.status, 202, JSON.stringify(freeze.body));
    assert.equal(freeze.body.payoutsFrozen, theirs.length);
    assert.ok((await payoutsOf(bot.botId)).every((p) => p.status === 'FROZEN' && p.statusReason === 'RECIPIENT_FROZEN'));
    const unfreeze = await r.post('treasurer', `/v1/admin/rewards/recipients/${erin.recipientId}/unfreeze`, { reason: 'cleared' });
    assert.equal(unfreeze.body.payoutsToReview, theirs.length);
    assert.ok((await payoutsOf(bot.botId)).every((p) => p.status === 'REVIEW'));

    // the person the run gave them to no longer reaches them: a freeze of theirs changes none of these payouts
    const before = await r.db.selectFrom('payouts').select(['id', 'status']).where('bot_id', '=', bot.botId).orderBy('seq').execute();
    const touched = await r.db.transaction().execute((tx) => freezeRecipientPayouts(tx, bot.agentBookHuman, new Date()));
    assert.equal(touched, 0);
    assert.deepEqual(
      await r.db.selectFrom('payouts').select(['id', 'status']).where('bot_id', '=', bot.botId).orderBy('seq').execute(),
      before,
    );
  });

  test("refusals: a wallet that is not the bot's, a replayed or expired challenge, a bad consent, an owner below L3", async () => {
    const bot = await verifiedBot();
    const erin = await person({ wallet: true });
    const stranger = privateKeyToAccount(generatePrivateKey());

    // the challenge names a wallet the bot did not verify with
    const wrongWallet = await challenge(erin, bot.botId, stranger.address);
    assert.equal(wrongWallet.status, 403);
    assert.equal(wrongWallet.body.code, 'BOT_OWNER_WALLET_MISMATCH');

    const c = (await challenge(erin, bot.botId, bot.wallet.address)).body;
    const consent = signBotOwnerConsent(bot.key, c);
    // the message signed by another wallet than the bot's
    const forged = await claim(erin, {
      challengeId: c.challengeId,
      walletSignature: await stranger.signMessage({ message: c.message }),
      botConsent: consent,
    });
    assert.equal(forged.status, 400);
    assert.equal(forged.body.code, 'BOT_OWNER_SIGNATURE_INVALID');
    const walletSignature = await bot.wallet.signMessage({ message: c.message });

    // no consent, a consent by another key, a consent for another message, a key version the bot lacks
    const noConsent = await claim(erin, { challengeId: c.challengeId, walletSignature });
    assert.equal(noConsent.status, 400);
    assert.equal(noConsent.body.code, 'VALIDATION_FAILED');
    const otherKey = generateAgentKey();
    const byOtherKey = signBotOwnerConsent({ ...otherKey, botId: bot.botId }, c);
    for (const botConsent of [
      byOtherKey,
      signBotOwnerConsent(bot.key, { ...c, ownerLinkedHumanId: 'h_someone_else' }),
      { ...consent, keyVersion: 2 },
    ]) {
      const refused = await claim(erin, { challengeId: c.challengeId, walletSignature, botConsent });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.code, 'BOT_OWNER_CONSENT_INVALID');
    }

    // another person cannot use erin's challenge
    const frank = await person();
    const notTheirs = await claim(frank, { challengeId: c.challengeId, walletSignature, botConsent: consent });
    assert.equal(notTheirs.status, 409);
    assert.equal(notTheirs.body.code, 'BOT_OWNER_CHALLENGE_NOT_FOUND');

    // an owner below L3 (L2, or L3 not signed as verified)
    const l2 = {
      actor: { actorId: `l2-${randomBytes(3).toString('hex')}`, verified: true, linkedHumanId: `h_l2_${randomBytes(4).toString('hex')}` },
    };
    await bindActor(r.t.db.database, l2.actor.actorId, l2.actor.linkedHumanId, 'L2');
    for (const who of [l2, { actor: { ...erin.actor, verified: false } }]) {
      const low = await challenge(who, bot.botId, bot.wallet.address);
      assert.equal(low.status, 409);
      assert.equal(low.body.code, 'BOT_OWNER_IDENTITY_REQUIRED');
      const lowClaim = await claim(who, { challengeId: c.challengeId, walletSignature, botConsent: consent });
      assert.equal(lowClaim.body.code, 'BOT_OWNER_IDENTITY_REQUIRED');
    }
    assert.equal(
      await r.db.selectFrom('bot_owners').select('id').where('bot_id', '=', bot.botId).executeTakeFirst(),
      undefined,
      'nothing recorded',
    );

    // an expired challenge (as the database records it)
    const late = (await challenge(erin, bot.botId, bot.wallet.address)).body;
    await r.db
      .updateTable('bot_owner_challenges')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', late.challengeId)
      .execute();
    const expired = await claim(erin, await signBotOwnerClaim({ key: bot.key, wallet: bot.wallet, challenge: late }));
    assert.equal(expired.status, 409);
    assert.equal(expired.body.code, 'BOT_OWNER_CHALLENGE_EXPIRED');

    // the good claim, then the same message again: the nonce is used
    const ok = await claim(erin, { challengeId: c.challengeId, walletSignature, botConsent: consent });
    assert.equal(ok.status, 202, JSON.stringify(ok.body));
    const replay = await claim(erin, { challengeId: c.challengeId, walletSignature, botConsent: consent });
    assert.equal(replay.status, 409);
    assert.equal(replay.body.code, 'BOT_OWNER_CHALLENGE_USED');
  });

  test('one challenge, two concurrent claims: exactly one wins (the database uses the nonce once)', async () => {
    const bot = await verifiedBot();
    const gina = await person();
    const c = (await challenge(gina, bot.botId, bot.wallet.address)).body;
    const signatures = await signBotOwnerClaim({ key: bot.key, wallet: bot.wallet, challenge: c });
    const results = await Promise.all([claim(gina, signatures), claim(gina, signatures)]);
    assert.deepEqual(results.map((x) => x.status).sort(), [202, 409]);
    assert.equal(results.find((x) => x.status === 409)!.body.code, 'BOT_OWNER_CHALLENGE_USED');
    const rows = await r.db.selectFrom('bot_owners').selectAll().where('bot_id', '=', bot.botId).execute();
    assert.equal(rows.length, 1);
  });

  test(
    'two instances on one database: one challenge claimed on both, and two people claiming one bot at once: one wins each time',
    { skip: needsPostgres('concurrent transactions of two instances need real PostgreSQL') },
    async () => {
      const other = await rewardsApp(
        { AGENTBOOK_MODE: 'rpc', AGENTBOOK_RPC_URL: chain.rpcUrl, AGENTBOOK_CONTRACT: chain.contract },
        r.t.db,
      );
      try {
        const claimOn = (app: RewardsApp, who: Person, body: Json) =>
          app.client.humanWrite<Json>(TEST_SECRET, '/v1/rewards/bot-owners/claim', { ...who.actor, ...body });
        const bot = await verifiedBot();
        const lee = await person();
        const c = (await challenge(lee, bot.botId, bot.wallet.address)).body;
        const signatures = await signBotOwnerClaim({ key: bot.key, wallet: bot.wallet, challenge: c });
        const once = await Promise.all([claimOn(r, lee, signatures), claimOn(other, lee, signatures)]);
        assert.deepEqual(once.map((x) => x.status).sort(), [202, 409]);
        assert.equal(once.find((x) => x.status === 409)!.body.code, 'BOT_OWNER_CHALLENGE_USED');

        const contested = await verifiedBot();
        const [mia, ned] = [await person(), await person()];
        const [cm, cn] = [
          (await challenge(mia, contested.botId, contested.wallet.address)).body,
          (await challenge(ned, contested.botId, contested.wallet.address)).body,
        ];
        const both = await Promise.all([
          claimOn(r, mia, await signBotOwnerClaim({ key: contested.key, wallet: contested.wallet, challenge: cm })),
          claimOn(other, ned, await signBotOwnerClaim({ key: contested.key, wallet: contested.wallet, challenge: cn })),
        ]);
        assert.deepEqual(both.map((x) => x.status).sort(), [202, 409]);
        assert.equal(both.find((x) => x.status === 409)!.body.code, 'BOT_ALREADY_OWNED');
        const current = await r.db.selectFrom('bot_owners').selectAll().where('bot_id', '=', contested.botId).execute();
        assert.equal(current.length, 1);
      } finally {
        await other.t.close();
      }
    },
  );

  test('a bot owned by another person is refused; the owner unlinks it and another person claims it, earlier payouts stay', async () => {
    const bot = await verifiedBot();
    const hana = await person({ wallet: true });
    const ivan = await person({ wallet: true });
    // ivan's challenge is taken before hana claims: his claim then meets her ownership
    const early = (await challenge(ivan, bot.botId, bot.wallet.address)).body;
    assert.equal((await claimBot(hana, bot)).status, 202);

    const refused = await challenge(ivan, bot.botId, bot.wallet.address);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'BOT_ALREADY_OWNED');
    const late = await claim(ivan, await signBotOwnerClaim({ key: bot.key, wallet: bot.wallet, challenge: early }));
    assert.equal(late.status, 409);
    assert.equal(late.body.code, 'BOT_ALREADY_OWNED');

    await settleWorkOf(bot.botId);
    const hanas = await payoutsOf(bot.botId);
    assert.ok(hanas.length >= 1 && hanas.every((p) => p.status === 'PAYABLE' && p.linkedHumanId === hana.actor.linkedHumanId));

    // only the owner unlinks
    const unlink = (who: Person) =>
      r.client.humanWrite<Json>(TEST_SECRET, '/v1/rewards/bot-owners/unlink', { ...who.actor, botId: bot.botId });
    const notOwner = await unlink(ivan);
    assert.equal(notOwner.status, 403);
    assert.equal(notOwner.body.code, 'BOT_NOT_OWNED_BY_CALLER');
    const unlinked = await unlink(hana);
    assert.equal(unlinked.status, 202, JSON.stringify(unlinked.body));
    assert.equal(unlinked.body.ownerLinkedHumanId, hana.actor.linkedHumanId);

    // unowned again: the next payouts wait (AgentBook's human is nobody's recipient)
    await settleWorkOf(bot.botId);
    const unowned = (await payoutsOf(bot.botId)).filter((p) => !hanas.some((q) => q.id === p.id));
    assert.ok(unowned.length >= 1 && unowned.every((p) => p.status === 'PENDING_RECIPIENT' && p.linkedHumanId === bot.agentBookHuman));

    const ivans = await claimBot(ivan, bot);
    assert.equal(ivans.status, 202, JSON.stringify(ivans.body));
    assert.equal(ivans.body.payoutsAssigned, unowned.length, 'only the payouts that waited move');
    for (const p of await payoutsOf(bot.botId)) {
      const owner = hanas.some((q) => q.id === p.id) ? hana : ivan;
      assert.equal(p.linkedHumanId, owner.actor.linkedHumanId);
      assert.equal(p.recipientId, owner.recipientId);
      assert.equal(p.status, 'PAYABLE');
    }
  });

  test("the bot's wallet changes: the ownership lapses until the owner proves the new wallet; a wallet gone from AgentBook proves nothing", async () => {
    const bot = await verifiedBot();
    const jo = await person({ wallet: true });
    assert.equal((await claimBot(jo, bot)).status, 202);

    // the bot verifies again with a new wallet registered in AgentBook
    const newWallet = privateKeyToAccount(generatePrivateKey());
    const newHuman = BigInt(`0x${randomBytes(16).toString('hex')}`);
    await chain.register(newWallet.address, newHuman);
    const reverified = await createAgentClient({ baseUrl: r.t.baseUrl, key: bot.key, wallet: newWallet, proofOrigin: origin }).verify();
    assert.equal(reverified.walletAddress, newWallet.address);

    await settleWorkOf(bot.botId);
    const lapsed = await payoutsOf(bot.botId);
    assert.ok(lapsed.length >= 1);
    assert.ok(
      lapsed.every((p) => p.status === 'PENDING_RECIPIENT' && p.linkedHumanId === reverified.linkedHumanId),
      JSON.stringify(lapsed),
    );
    // the old wallet is no longer the bot's
    const old = await challenge(jo, bot.botId, bot.wallet.address);
    assert.equal(old.status, 403);
    assert.equal(old.body.code, 'BOT_OWNER_WALLET_MISMATCH');

    // a wallet removed from AgentBook proves no ownership
    const moved = { ...bot, wallet: newWallet };
    const pending = (await challenge(jo, bot.botId, newWallet.address)).body;
    await chain.register(newWallet.address, 0n);
    const stale = await claim(jo, await signBotOwnerClaim({ key: bot.key, wallet: newWallet, challenge: pending }));
    assert.equal(stale.status, 409);
    assert.equal(stale.body.code, 'BOT_OWNER_CHALLENGE_STALE');

    // registered again, the owner proves the new wallet: the ownership is renewed and the lapsed payouts are theirs
    await chain.register(newWallet.address, newHuman);
    const renewed = await claimBot(jo, moved);
    assert.equal(renewed.status, 202, JSON.stringify(renewed.body));
    assert.equal(renewed.body.walletAddress, newWallet.address);
    assert.equal(renewed.body.payoutsReleased, lapsed.length);
    assert.ok((await payoutsOf(bot.botId)).every((p) => p.status === 'PAYABLE' && p.linkedHumanId === jo.actor.linkedHumanId));
    const history = await r.db.selectFrom('bot_owners').selectAll().where('bot_id', '=', bot.botId).orderBy('claimed_at').execute();
    assert.deepEqual(
      history.map((h) => [h.wallet_address, h.ended_reason]),
      [
        [bot.wallet.address, 'REPLACED'],
        [newWallet.address, null],
      ],
    );
  });

  test('the command line signs a challenge: newsroom-agent owner-consent checks it, then signs with the key and the wallet', async () => {
    const bot = await verifiedBot();
    const kim = await person({ wallet: true });
    const dir = mkdtempSync(join(tmpdir(), 'owner-consent-'));
    try {
      writeFileSync(join(dir, 'key.json'), JSON.stringify({ botId: bot.botId, seed: agentKeySeed(bot.key) }));
      const c = (await challenge(kim, bot.botId, bot.wallet.address)).body;
      writeFileSync(join(dir, 'challenge.json'), JSON.stringify(c));
      const run = async (args: string[]) => {
        let stdout = '';
        let stderr = '';
        const code = await agentCli(
          ['owner-consent', '--challenge', join(dir, 'challenge.json'), '--key', join(dir, 'key.json'), ...args],
          {},
          { write: (text: string) => void (stdout += text) } as unknown as typeof process.stdout,
          { write: (text: string) => void (stderr += text) } as unknown as typeof process.stderr,
        );
        return { code, stdout, stderr };
      };
      // a challenge naming another owner than the developer means is not signed
      const wrongOwner = await run(['--owner', 'h_someone_else']);
      assert.equal(wrongOwner.code, 2);
      assert.match(wrongOwner.stderr, /do not sign it/);
      // the consent alone (the wallet signs elsewhere), then both signatures
      const consentOnly = await run(['--owner', kim.actor.linkedHumanId]);
      assert.equal(consentOnly.code, 0, consentOnly.stderr);
      assert.equal(JSON.parse(consentOnly.stdout).walletSignature, undefined);
      writeFileSync(join(dir, 'wallet.json'), JSON.stringify({ address: bot.wallet.address, privateKey: bot.walletKey }));
      const both = await run(['--owner', kim.actor.linkedHumanId, '--wallet-key', join(dir, 'wallet.json')]);
      assert.equal(both.code, 0, both.stderr);
      const claimed = await claim(kim, JSON.parse(both.stdout));
      assert.equal(claimed.status, 202, JSON.stringify(claimed.body));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
