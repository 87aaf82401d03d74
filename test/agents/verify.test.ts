import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { buildAgentProof, generateAgentKey, signAgentRequest } from '../../sdk/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { joinBot, joinedBot, linkedHumanIdOf, newWallet, packet, post, proofNonce, signedWithProof } from './support.js';

const VERIFY = '/v1/agents/verify';
const CANDIDATES = '/v1/candidates';

describe('POST /v1/agents/verify and verified writes (World AgentKit)', () => {
  let t: TestApp;
  let origin: string;
  const registered = [newWallet(), newWallet(), newWallet(), newWallet(), newWallet()];
  const unregistered = newWallet();

  before(async () => {
    t = await createTestApp({
      AGENTBOOK_MODE: 'static',
      AGENTBOOK_STATIC: JSON.stringify(Object.fromEntries(registered.map((w) => [w.account.address, w.humanId]))),
    });
    origin = t.config.worldAgentkitResourceOrigins[0]!;
  });
  after(() => t.close());

  async function verifiedBot(wallet = registered[0]!) {
    const key = generateAgentKey();
    assert.equal((await joinBot(t.app, key)).status, 202);
    const res = await signedWithProof(t.app, { key, path: VERIFY, body: { botId: key.botId }, origin, wallet: wallet.account });
    return { key, res };
  }

  test('a joined bot with a registered wallet becomes VERIFIED, with the derived linkedHumanId and the bound wallet and chain', async () => {
    const wallet = newWallet();
    const app = await createTestApp({ AGENTBOOK_STATIC: JSON.stringify({ [wallet.account.address.toLowerCase()]: wallet.humanId }) });
    try {
      const key = generateAgentKey();
      await joinedBot(app.app, key);
      const res = await signedWithProof(app.app, {
        key,
        path: VERIFY,
        body: { botId: key.botId },
        origin: app.config.worldAgentkitResourceOrigins[0]!,
        wallet: wallet.account,
        proof: { chainId: 'eip155:8453' },
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      assert.equal(res.body.verified, true);
      assert.equal(res.body.trustTier, 'VERIFIED');
      assert.equal(res.body.linkedHumanId, linkedHumanIdOf(wallet.humanId));
      assert.equal(res.body.walletAddress, wallet.account.address);
      assert.equal(res.body.walletChainId, 'eip155:8453');
      // join again answers the bot as it now is
      const again = await joinBot(app.app, key);
      assert.equal(again.status, 200);
      assert.equal(again.body.trustTier, 'VERIFIED');
    } finally {
      await app.close();
    }
  });

  test('verify checks the bot signature before the proof: a bad signature with a bad proof is 401', async () => {
    const key = generateAgentKey();
    await joinedBot(t.app, key);
    const body = { botId: key.botId };
    const headers = signAgentRequest({ key, method: 'POST', path: VERIFY, body, agentProof: 'not-a-proof' });
    const res = await post(
      t.app,
      VERIFY,
      { botId: key.botId },
      { ...headers, 'x-agent-signature': Buffer.alloc(64, 1).toString('base64url') },
    );
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'AGENT_SIGNATURE_INVALID');
  });

  const failures: [string, (key: ReturnType<typeof generateAgentKey>) => Promise<Parameters<typeof signedWithProof>[1]>, string][] = [
    ['a missing proof', async (key) => ({ key, path: VERIFY, body: { botId: key.botId }, origin }), 'MISSING'],
    [
      'a proof for another route',
      async (key) => ({
        key,
        path: VERIFY,
        body: { botId: key.botId },
        origin,
        wallet: registered[1]!.account,
        proof: { path: CANDIDATES },
      }),
      'URI_MISMATCH',
    ],
    [
      'a proof for another origin',
      async (key) => ({
        key,
        path: VERIFY,
        body: { botId: key.botId },
        origin,
        wallet: registered[1]!.account,
        proof: { origin: 'https://evil.example' },
      }),
      'URI_MISMATCH',
    ],
    [
      'a proof whose nonce is not x-agent-nonce',
      async (key) => ({
        key,
        path: VERIFY,
        body: { botId: key.botId },
        origin,
        wallet: registered[1]!.account,
        proof: { nonce: proofNonce() },
      }),
      'NONCE_MISMATCH',
    ],
    [
      'a proof issued ten minutes ago',
      async (key) => ({
        key,
        path: VERIFY,
        body: { botId: key.botId },
        origin,
        wallet: registered[1]!.account,
        proof: { issuedAt: Date.now() - 600_000, expirationSeconds: 3600 },
      }),
      'EXPIRED',
    ],
    [
      'an expired proof',
      async (key) => ({
        key,
        path: VERIFY,
        body: { botId: key.botId },
        origin,
        wallet: registered[1]!.account,
        proof: { issuedAt: Date.now() - 2_000, expirationSeconds: 1 },
      }),
      'EXPIRED',
    ],
    [
      'a wallet nobody registered in AgentBook',
      async (key) => ({ key, path: VERIFY, body: { botId: key.botId }, origin, wallet: unregistered.account }),
      'UNREGISTERED',
    ],
  ];
  for (const [what, input, check] of failures) {
    test(`verify refuses ${what}: 403 AGENTPROOF_VERIFICATION_FAILED naming ${check}`, async () => {
      const key = generateAgentKey();
      await joinedBot(t.app, key);
      const res = await signedWithProof(t.app, await input(key));
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.code, 'AGENTPROOF_VERIFICATION_FAILED');
      assert.deepEqual(
        res.body.details?.map((d) => [d.header, d.code]),
        [['agentproof', check]],
      );
      const bot = await joinBot(t.app, key);
      assert.equal(bot.body.trustTier, 'UNVERIFIED');
    });
  }

  test('verify refuses a malformed header and a signature that does not recover the address', async () => {
    const key = generateAgentKey();
    await joinedBot(t.app, key);
    const body = { botId: key.botId };
    for (const agentProof of ['%%%', Buffer.from('{"domain":1}').toString('base64'), Buffer.from('not json').toString('base64')]) {
      const res = await post(t.app, VERIFY, body, signAgentRequest({ key, method: 'POST', path: VERIFY, body, agentProof }));
      assert.equal(res.status, 403);
      assert.equal(res.body.details?.[0]?.code, 'MALFORMED', agentProof);
    }
    // a proof signed by one wallet that claims another (registered) address
    const nonce = proofNonce();
    const real = await buildAgentProof({ wallet: privateKeyToAccount(generatePrivateKey()), origin, path: VERIFY, nonce });
    const forged = JSON.parse(Buffer.from(real, 'base64').toString('utf8')) as Record<string, unknown>;
    forged.address = registered[1]!.account.address;
    const res = await post(
      t.app,
      VERIFY,
      body,
      signAgentRequest({
        key,
        method: 'POST',
        path: VERIFY,
        body,
        nonce,
        agentProof: Buffer.from(JSON.stringify(forged)).toString('base64'),
      }),
    );
    assert.equal(res.status, 403);
    assert.equal(res.body.details?.[0]?.code, 'SIGNATURE_INVALID');
  });

  test('a proof sent by one bot cannot verify another bot, even signed with the same nonce', async () => {
    const first = generateAgentKey();
    const second = generateAgentKey();
    await joinedBot(t.app, first);
    await joinedBot(t.app, second);
    const nonce = proofNonce();
    const agentProof = await buildAgentProof({ wallet: registered[2]!.account, origin, path: VERIFY, nonce });
    const one = await post(
      t.app,
      VERIFY,
      { botId: first.botId },
      signAgentRequest({ key: first, method: 'POST', path: VERIFY, body: { botId: first.botId }, nonce, agentProof }),
    );
    assert.equal(one.status, 202, JSON.stringify(one.body));
    const two = await post(
      t.app,
      VERIFY,
      { botId: second.botId },
      signAgentRequest({ key: second, method: 'POST', path: VERIFY, body: { botId: second.botId }, nonce, agentProof }),
    );
    assert.equal(two.status, 403);
    assert.equal(two.body.details?.[0]?.code, 'NONCE_REUSED');
  });

  test('one wallet verifies one bot: a second bot with the same wallet is 409 AGENT_WALLET_IN_USE', async () => {
    const first = await verifiedBot(registered[3]!);
    assert.equal(first.res.status, 202);
    const second = await verifiedBot(registered[3]!);
    assert.equal(second.res.status, 409);
    assert.equal(second.res.body.code, 'AGENT_WALLET_IN_USE');
  });

  test('a verified bot writes verified only with a fresh proof by its bound wallet for that route', async () => {
    const { key, res } = await verifiedBot(registered[4]!);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const write = (wallet: (typeof registered)[number] | undefined, proof?: Parameters<typeof signedWithProof>[1]['proof']) =>
      signedWithProof(t.app, {
        key,
        path: CANDIDATES,
        body: { botId: key.botId, verified: true, ...packet(randomBytes(4).toString('hex')) },
        origin,
        ...(wallet ? { wallet: wallet.account } : {}),
        ...(proof ? { proof } : {}),
      });

    const ok = await write(registered[4]);
    assert.equal(ok.status, 202, JSON.stringify(ok.body));
    assert.equal((ok.body as { verified?: boolean }).verified, true);

    const cases: [Awaited<ReturnType<typeof write>>, string][] = [
      [await write(undefined), 'MISSING'],
      [await write(registered[4], { path: VERIFY }), 'URI_MISMATCH'],
      [await write(registered[4], { nonce: proofNonce() }), 'NONCE_MISMATCH'],
      [await write(registered[4], { chainId: 'eip155:1' }), 'WALLET_MISMATCH'],
      [await write(registered[1]), 'WALLET_MISMATCH'],
      [await write(registered[4], { issuedAt: Date.now() - 3_600_000, expirationSeconds: 7200 }), 'EXPIRED'],
    ];
    for (const [reply, check] of cases) {
      assert.equal(reply.status, 403, check);
      assert.equal(reply.body.code, 'AGENTPROOF_VERIFICATION_FAILED');
      assert.equal(reply.body.details?.[0]?.code, check);
    }
    // the same bot writes unverified without any proof
    const plain = await signedWithProof(t.app, {
      key,
      path: CANDIDATES,
      body: { botId: key.botId, verified: false, ...packet(randomBytes(4).toString('hex')) },
      origin,
    });
    assert.equal(plain.status, 202);
    assert.equal((plain.body as { verified?: boolean }).verified, false);
  });

  test('an unverified bot claiming verified: true is refused as NOT_VERIFIED, whatever proof it sends', async () => {
    const key = generateAgentKey();
    await joinedBot(t.app, key);
    const res = await signedWithProof(t.app, {
      key,
      path: CANDIDATES,
      body: { botId: key.botId, verified: true, ...packet('nv') },
      origin,
      wallet: registered[0]!.account,
    });
    assert.equal(res.status, 403);
    assert.equal(res.body.details?.[0]?.code, 'NOT_VERIFIED');
  });

  test('the route is in the OpenAPI document, with its agentproof header', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    const doc = res.json() as {
      paths: Record<
        string,
        { post?: { responses: Record<string, unknown>; parameters?: { in: string; name: string; required?: boolean }[] } }
      >;
    };
    const op = doc.paths[VERIFY]?.post;
    assert.ok(op?.responses['202'] && op.responses['403']);
    assert.ok(op.parameters?.some((p) => p.in === 'header' && p.name === 'agentproof' && p.required));
  });
});
