import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { generateAgentKey, signAgentRequest } from '../../sdk/index.js';
import { createTestApp, createTestDatabase, TEST_OPS_TOKEN, type TestApp } from '../helpers/app.js';
import { joinBot, joinedBot, newWallet, packet, post, signedWithProof } from './support.js';

const VERIFY = '/v1/agents/verify';
const CANDIDATES = '/v1/candidates';

function agentbookEnv(wallets: ReturnType<typeof newWallet>[]) {
  return { AGENTBOOK_STATIC: JSON.stringify(Object.fromEntries(wallets.map((w) => [w.account.address, w.humanId]))) };
}

async function verify(t: TestApp, wallet: ReturnType<typeof newWallet>) {
  const key = generateAgentKey();
  assert.equal((await joinBot(t.app, key)).status, 202);
  const res = await signedWithProof(t.app, {
    key,
    path: VERIFY,
    body: { botId: key.botId },
    origin: t.config.worldAgentkitResourceOrigins[0]!,
    wallet: wallet.account,
  });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return key;
}

describe('verified agents: limits, consensus weight and deployment switches', () => {
  const wallets = [newWallet(), newWallet()];
  let t: TestApp;
  before(async () => {
    t = await createTestApp({
      ...agentbookEnv(wallets),
      RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '2',
      RATE_LIMIT_VERIFIED_WRITES_PER_MINUTE: '4',
    });
  });
  after(() => t.close());

  test('verified writes get the verified limit, unverified writes the tighter one', async () => {
    const origin = t.config.worldAgentkitResourceOrigins[0]!;
    const unverified = generateAgentKey();
    const joined = await joinBot(t.app, unverified);
    assert.equal(joined.status, 202, JSON.stringify(joined.body));
    const plain = [];
    for (let i = 0; i < 3; i++)
      plain.push(
        await signedWithProof(t.app, {
          key: unverified,
          path: CANDIDATES,
          body: { botId: unverified.botId, verified: false, ...packet(randomBytes(4).toString('hex')) },
          origin,
        }),
      );
    assert.deepEqual(
      plain.map((r) => r.status),
      [202, 202, 429],
      JSON.stringify(plain.map((r) => r.body)),
    );
    assert.equal(plain[2]!.body.code, 'RATE_LIMITED');

    const key = await verify(t, wallets[0]!); // the verify call is the bot's first counted write
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const res = await signedWithProof(t.app, {
        key,
        path: CANDIDATES,
        body: { botId: key.botId, verified: true, ...packet(randomBytes(4).toString('hex')) },
        origin,
        wallet: wallets[0]!.account,
      });
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [202, 202, 202, 429]);
  });

  test('a verified attestation weighs consensus.verifiedAgentWeight in the consensus snapshot, an unverified one 1', async () => {
    const origin = t.config.worldAgentkitResourceOrigins[0]!;
    const author = generateAgentKey();
    await joinedBot(t.app, author);
    const candidate = await signedWithProof(t.app, {
      key: author,
      path: CANDIDATES,
      body: { botId: author.botId, verified: false, ...packet(randomBytes(4).toString('hex')) },
      origin,
    });
    const { hash, storyId } = candidate.body as { hash: string; storyId: string };
    const published = await t.app.inject({
      method: 'POST',
      url: `/v1/publish/${hash}/compute`,
      headers: { 'x-operations-token': TEST_OPS_TOKEN },
    });
    assert.equal(published.json().decision, 'ALLOW');

    const reviewer = await verify(t, wallets[1]!);
    const path = '/v1/agents/attestations';
    const attested = await signedWithProof(t.app, {
      key: reviewer,
      path,
      body: { botId: reviewer.botId, verified: true, storyId, packetHash: hash },
      origin,
      wallet: wallets[1]!.account,
    });
    assert.equal(attested.status, 202, JSON.stringify(attested.body));
    assert.equal(attested.body.weight, 2);
    assert.equal(attested.body.verified, true);
    const plainBot = generateAgentKey();
    await joinedBot(t.app, plainBot);
    const plain = await signedWithProof(t.app, {
      key: plainBot,
      path,
      body: { botId: plainBot.botId, verified: false, storyId, packetHash: hash },
      origin,
    });
    assert.equal(plain.body.weight, 1);
    const consensus = (await t.app.inject({ method: 'GET', url: `/v1/stories/${storyId}/consensus` })).json() as {
      snapshot: { attestations: { count: number; weight: number } };
    };
    assert.deepEqual(consensus.snapshot.attestations, { count: 2, weight: 3 });
  });

  test('AGENT_REQUIRE_VERIFIED=1: unverified writes are 403 AGENT_VERIFIED_REQUIRED; join and verify stay open; verified writes pass', async () => {
    const wallet = newWallet();
    const strict = await createTestApp({ ...agentbookEnv([wallet]), AGENT_REQUIRE_VERIFIED: '1' });
    try {
      const origin = strict.config.worldAgentkitResourceOrigins[0]!;
      const key = generateAgentKey();
      assert.equal((await joinBot(strict.app, key)).status, 202);
      const refused = await signedWithProof(strict.app, {
        key,
        path: CANDIDATES,
        body: { botId: key.botId, verified: false, ...packet('strict') },
        origin,
      });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'AGENT_VERIFIED_REQUIRED');
      const verified = await signedWithProof(strict.app, { key, path: VERIFY, body: { botId: key.botId }, origin, wallet: wallet.account });
      assert.equal(verified.status, 202, JSON.stringify(verified.body));
      const accepted = await signedWithProof(strict.app, {
        key,
        path: CANDIDATES,
        body: { botId: key.botId, verified: true, ...packet('strict') },
        origin,
        wallet: wallet.account,
      });
      assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    } finally {
      await strict.close();
    }
  });

  test('AGENT_SELF_SERVE_JOIN=0: join is 403 and bots that joined earlier cannot write; registry bots can', async () => {
    const db = await createTestDatabase();
    const registryKey = generateAgentKey();
    const registry = JSON.stringify([
      { botId: registryKey.botId, publicKeys: [{ version: 1, publicKey: registryKey.publicKey }], permissions: ['candidates:submit'] },
    ]);
    const open = await createTestApp({ AGENT_BOT_REGISTRY: registry }, db);
    const closed = await createTestApp({ AGENT_BOT_REGISTRY: registry, AGENT_SELF_SERVE_JOIN: '0' }, db);
    try {
      const origin = closed.config.worldAgentkitResourceOrigins[0]!;
      const earlier = generateAgentKey();
      assert.equal((await joinBot(open.app, earlier)).status, 202);
      const join = await joinBot(closed.app, generateAgentKey());
      assert.equal(join.status, 403);
      assert.equal(join.body.code, 'AGENT_SELF_SERVE_JOIN_DISABLED');
      const write = await signedWithProof(closed.app, {
        key: earlier,
        path: CANDIDATES,
        body: { botId: earlier.botId, verified: false, ...packet('closed') },
        origin,
      });
      assert.equal(write.status, 403);
      assert.equal(write.body.code, 'AGENT_SELF_SERVE_JOIN_DISABLED');
      const registryWrite = await signedWithProof(closed.app, {
        key: registryKey,
        path: CANDIDATES,
        body: { botId: registryKey.botId, verified: false, ...packet('registry') },
        origin,
      });
      assert.equal(registryWrite.status, 202, JSON.stringify(registryWrite.body));
    } finally {
      await closed.close();
      await open.close();
      await db.drop();
    }
  });

  test('self-serve joins are limited per client address: the next join past the limit is 429 with retryAfterSeconds', async () => {
    const limited = await createTestApp({ RATE_LIMIT_AGENT_JOINS_PER_MINUTE: '3' });
    try {
      const statuses = [];
      let last;
      for (let i = 0; i < 5; i++) {
        last = await joinBot(limited.app, generateAgentKey());
        statuses.push(last.status);
      }
      assert.deepEqual(statuses, [202, 202, 202, 429, 429]);
      assert.equal(last!.body.code, 'RATE_LIMITED');
      assert.ok(typeof last!.body.retryAfterSeconds === 'number' && last!.body.retryAfterSeconds >= 1);
    } finally {
      await limited.close();
    }
  });
  test('a replayed join is refused as a replay and still counts against its client address', async () => {
    const limited = await createTestApp({ RATE_LIMIT_AGENT_JOINS_PER_MINUTE: '3' });
    try {
      const key = generateAgentKey();
      const body = { publicKey: key.publicKey, name: 'Replayed bot' };
      const headers = signAgentRequest({ key, method: 'POST', path: '/v1/agents/join', body });
      const first = await post(limited.app, '/v1/agents/join', body, headers);
      const replay = await post(limited.app, '/v1/agents/join', body, headers);
      assert.deepEqual([first.status, replay.status, replay.body.code], [202, 409, 'REPLAY_DETECTED']);
      // the first join and its replay used two of the three: one more join is accepted, the next is over the limit
      assert.equal((await joinBot(limited.app, generateAgentKey())).status, 202);
      const over = await joinBot(limited.app, generateAgentKey());
      assert.deepEqual([over.status, over.body.code], [429, 'RATE_LIMITED']);
    } finally {
      await limited.close();
    }
  });
  // The join limit shared by two instances: test/platform/redis-topologies.test.ts, on each Redis deployment.
});
