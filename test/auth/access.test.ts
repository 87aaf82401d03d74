import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyPluginAsync } from 'fastify';
import { generateAgentKey, signAgentRequest, signHumanRequest, signKeyProof, type AgentKey } from '../../sdk/index.js';
import { createTestApp, TEST_API_KEY, TEST_OPS_TOKEN, TEST_SECRET, type TestApp } from '../helpers/app.js';
import { bindActor } from '../helpers/identity.js';

const HASH = 'b'.repeat(64);
let counter = 0;
const echoRoute: FastifyPluginAsync = async (app) => {
  app.post('/v1/test/echo', { config: { auth: { kind: 'agent' } } }, async (_request, reply) => {
    counter += 1;
    return reply.code(202).send({ call: counter });
  });
  app.post('/v1/test/ops', { config: { auth: { kind: 'operations' } } }, async () => ({ ok: true }));
};

async function joinBot(t: TestApp, key: AgentKey) {
  const body = { publicKey: key.publicKey, name: 'bot' };
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/agents/join',
    headers: signAgentRequest({ key, method: 'POST', path: '/v1/agents/join', body }),
    payload: body,
  });
  assert.ok(res.statusCode === 202 || res.statusCode === 200);
}

function agentPost(t: TestApp, key: AgentKey, body: Record<string, unknown>, idempotencyKey?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/test/echo',
    headers: signAgentRequest({ key, method: 'POST', path: '/v1/test/echo', body, ...(idempotencyKey ? { idempotencyKey } : {}) }),
    payload: body,
  });
}

describe('public API keys', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ PUBLIC_API_KEYS: `other-key,${TEST_API_KEY}` });
  });
  after(() => t.close());

  test('no key is 401 "Public API key required"', async () => {
    const res = await t.app.inject({ url: `/v1/candidates/${HASH}/status` });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().error, 'Public API key required');
  });
  test('a wrong key is 401; x-api-key and Bearer both pass (404: no such candidate)', async () => {
    assert.equal((await t.app.inject({ url: `/v1/candidates/${HASH}/status`, headers: { 'x-api-key': 'nope' } })).statusCode, 401);
    assert.equal((await t.app.inject({ url: `/v1/candidates/${HASH}/status`, headers: { 'x-api-key': TEST_API_KEY } })).statusCode, 404);
    assert.equal(
      (await t.app.inject({ url: `/v1/candidates/${HASH}/status`, headers: { authorization: `Bearer ${TEST_API_KEY}` } })).statusCode,
      404,
    );
  });
  test('a malformed hash is 400 after the key check', async () => {
    const res = await t.app.inject({ url: '/v1/candidates/xyz/status', headers: { 'x-api-key': TEST_API_KEY } });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'VALIDATION_FAILED');
  });
});

describe('operations token', () => {
  test('required unless the loopback bypass is on; the bypass never applies to a non-loopback peer', async () => {
    const t = await createTestApp({}, undefined, [echoRoute]);
    const open = await createTestApp({ ALLOW_UNAUTHENTICATED_OPERATIONS: '1' }, undefined, [echoRoute]);
    try {
      const none = await t.app.inject({ method: 'POST', url: '/v1/test/ops' });
      assert.equal(none.statusCode, 401);
      assert.equal(none.json().error, 'Operations access required');
      assert.equal(
        (await t.app.inject({ method: 'POST', url: '/v1/test/ops', headers: { 'x-operations-token': TEST_OPS_TOKEN } })).statusCode,
        200,
      );
      assert.equal(
        (await t.app.inject({ method: 'POST', url: '/v1/test/ops', headers: { authorization: `Bearer ${TEST_OPS_TOKEN}` } })).statusCode,
        200,
      );
      assert.equal(
        (await t.app.inject({ method: 'POST', url: '/v1/test/ops', headers: { 'x-operations-token': 'wrong' } })).statusCode,
        401,
      );
      assert.equal((await open.app.inject({ method: 'POST', url: '/v1/test/ops' })).statusCode, 200, 'loopback bypass');
      const remote = await open.app.inject({ method: 'POST', url: '/v1/test/ops', remoteAddress: '203.0.113.9' });
      assert.equal(remote.statusCode, 401, 'not from loopback');
      const spoofed = await open.app.inject({
        method: 'POST',
        url: '/v1/test/ops',
        remoteAddress: '203.0.113.9',
        headers: { 'x-forwarded-for': '127.0.0.1' },
      });
      assert.equal(spoofed.statusCode, 401, 'x-forwarded-for is not the peer');
    } finally {
      await t.close();
      await open.close();
    }
  });
});

describe('idempotency keys on agent writes', () => {
  let t: TestApp;
  const key = generateAgentKey();
  before(async () => {
    t = await createTestApp({}, undefined, [echoRoute]);
    await joinBot(t, key);
  });
  after(() => t.close());

  test('the same key with the same body returns the first answer (status and body) without running again', async () => {
    const body = { botId: key.botId, verified: false, n: 1 };
    const first = await agentPost(t, key, body, 'idem-key-0001');
    assert.equal(first.statusCode, 202);
    const second = await agentPost(t, key, body, 'idem-key-0001');
    assert.equal(second.statusCode, 202);
    assert.deepEqual(second.json(), first.json());
    assert.equal(second.headers['idempotent-replayed'], 'true');
    const fresh = await agentPost(t, key, body, 'idem-key-0002');
    assert.notDeepEqual(fresh.json(), first.json(), 'another key runs the handler again');
  });

  test('the same key with a different body is 409 IDEMPOTENCY_KEY_CONFLICT', async () => {
    assert.equal((await agentPost(t, key, { botId: key.botId, verified: false, n: 1 }, 'idem-key-0003')).statusCode, 202);
    const res = await agentPost(t, key, { botId: key.botId, verified: false, n: 2 }, 'idem-key-0003');
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().code, 'IDEMPOTENCY_KEY_CONFLICT');
  });

  test('keys are scoped per bot: another bot may use the same key', async () => {
    const other = generateAgentKey();
    await joinBot(t, other);
    assert.equal((await agentPost(t, key, { botId: key.botId, verified: false, n: 5 }, 'idem-key-0004')).statusCode, 202);
    assert.equal((await agentPost(t, other, { botId: other.botId, verified: false, n: 6 }, 'idem-key-0004')).statusCode, 202);
  });

  test('a join and a change of keys (POST /v1/agents/join) honour the key too', async () => {
    const newcomer = generateAgentKey();
    const send = (signer: AgentKey, body: Record<string, unknown>, idempotencyKey?: string, keyVersion?: number) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/agents/join',
        headers: signAgentRequest({
          key: signer,
          method: 'POST',
          path: '/v1/agents/join',
          body,
          ...(idempotencyKey ? { idempotencyKey } : {}),
          ...(keyVersion ? { keyVersion } : {}),
        }),
        payload: body,
      });
    const joinBody = { publicKey: newcomer.publicKey, name: 'newcomer' };
    const joined = await send(newcomer, joinBody, 'join-key-0001');
    assert.equal(joined.statusCode, 202, joined.body);
    const rejoined = await send(newcomer, joinBody, 'join-key-0001');
    assert.equal(rejoined.statusCode, 202, 'the first answer, not the 200 of a second join');
    assert.equal(rejoined.headers['idempotent-replayed'], 'true');
    assert.deepEqual(rejoined.json(), joined.json());
    assert.equal((await send(newcomer, joinBody)).statusCode, 200, 'without the key, a second join');

    const second = generateAgentKey();
    const addBody = {
      botId: newcomer.botId,
      addKey: { publicKey: second.publicKey, keyProof: signKeyProof(second, newcomer.botId, 'svc') },
    };
    const added = await send(newcomer, addBody, 'add-key-0001');
    assert.equal(added.statusCode, 202, added.body);
    // the bot has two keys now: the retry names the one it signs with
    const retried = await send(newcomer, addBody, 'add-key-0001', 1);
    assert.equal(retried.headers['idempotent-replayed'], 'true');
    assert.deepEqual(retried.json(), added.json());
    const conflict = await send(newcomer, { botId: newcomer.botId, revokeKeyVersion: 2 }, 'add-key-0001', 1);
    assert.equal(conflict.json().code, 'IDEMPOTENCY_KEY_CONFLICT');
  });

  test('a key shorter than 8 characters is 400', async () => {
    const res = await agentPost(t, key, { botId: key.botId, verified: false }, 'short');
    assert.equal(res.statusCode, 400);
  });
});

describe('rate limits', () => {
  test('unverified bot writes past the per-minute limit are 429 RATE_LIMITED with retry-after', async () => {
    const t = await createTestApp({ RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '3' }, undefined, [echoRoute]);
    try {
      const key = generateAgentKey();
      await joinBot(t, key);
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 4; i += 1) {
        last = await agentPost(t, key, { botId: key.botId, verified: false, i });
        statuses.push(last.statusCode);
      }
      assert.deepEqual(statuses, [202, 202, 202, 429]);
      const body = last!.json();
      assert.equal(body.code, 'RATE_LIMITED');
      assert.ok(body.retryAfterSeconds >= 1 && body.retryAfterSeconds <= 60);
      assert.equal(last!.headers['retry-after'], String(body.retryAfterSeconds));
      const other = generateAgentKey();
      await joinBot(t, other);
      assert.equal((await agentPost(t, other, { botId: other.botId, verified: false })).statusCode, 202, 'per bot, not global');
    } finally {
      await t.close();
    }
  });

  test('public reads are limited per client IP; x-forwarded-for is ignored unless TRUST_PROXY names the proxy', async () => {
    const t = await createTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '2' });
    const proxied = await createTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '2', TRUST_PROXY: '127.0.0.1' });
    try {
      const url = `/v1/candidates/${HASH}/status`;
      const headers = (ip: string) => ({ 'x-api-key': TEST_API_KEY, 'x-forwarded-for': ip });
      const direct = [];
      for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
        direct.push((await t.app.inject({ url, headers: headers(ip) })).statusCode);
      assert.deepEqual(direct, [404, 404, 429], 'spoofed x-forwarded-for does not create new buckets');
      const viaProxy = [];
      for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.1', '198.51.100.1']) {
        viaProxy.push((await proxied.app.inject({ url, headers: headers(ip) })).statusCode);
      }
      assert.deepEqual(viaProxy, [404, 404, 404, 404, 429], 'behind a trusted proxy each client has its own bucket');
      assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200, 'health is outside the limit');
    } finally {
      await t.close();
      await proxied.close();
    }
  });

  test('human writes are limited per actor', async () => {
    const t = await createTestApp({ RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '1' });
    try {
      const send = (actorId: string) => {
        const body = { actorId, verified: false, preferences: {} };
        return t.app.inject({
          method: 'POST',
          url: '/v1/users/me/preferences',
          headers: signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: '/v1/users/me/preferences', body }),
          payload: body,
        });
      };
      assert.equal((await send('limited-1')).statusCode, 202);
      assert.equal((await send('limited-1')).statusCode, 429);
      assert.equal((await send('limited-2')).statusCode, 202);
    } finally {
      await t.close();
    }
  });
  test("a captured signed request replayed four times does not use up its owner's write limit (replays are refused before they count)", async () => {
    const t = await createTestApp({ RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '3' }, undefined, [echoRoute]);
    try {
      const key = generateAgentKey();
      await joinBot(t, key);
      const body = { botId: key.botId, verified: false, n: 'captured' };
      const headers = signAgentRequest({ key, method: 'POST', path: '/v1/test/echo', body });
      assert.equal((await t.app.inject({ method: 'POST', url: '/v1/test/echo', headers, payload: body })).statusCode, 202);
      for (let i = 0; i < 4; i += 1) {
        const replay = await t.app.inject({ method: 'POST', url: '/v1/test/echo', headers, payload: body });
        assert.equal(replay.statusCode, 409);
        assert.equal(replay.json().code, 'REPLAY_DETECTED');
      }
      // the owner used 1 of 3: two more fresh writes pass, the fourth is the first 429
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await agentPost(t, key, { botId: key.botId, verified: false, i })).statusCode);
      assert.deepEqual(statuses, [202, 202, 429]);

      const humanBody = { actorId: 'replayed-reader', verified: false, preferences: {} };
      const humanHeaders = signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: '/v1/users/me/preferences', body: humanBody });
      const sendHuman = (h: Record<string, string>, b: object) =>
        t.app.inject({ method: 'POST', url: '/v1/users/me/preferences', headers: h, payload: b });
      assert.equal((await sendHuman(humanHeaders, humanBody)).statusCode, 202);
      for (let i = 0; i < 5; i += 1) assert.equal((await sendHuman(humanHeaders, humanBody)).statusCode, 409);
      const fresh = signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: '/v1/users/me/preferences', body: humanBody });
      assert.equal((await sendHuman(fresh, humanBody)).statusCode, 202, 'the reader still has writes left (limit 30 by default)');
    } finally {
      await t.close();
    }
  });

  test('the rateLimits.* governance parameters drive the agent write limits', async () => {
    const t = await createTestApp({}, undefined, [echoRoute]);
    try {
      await t.app.ctx.database.db
        .insertInto('governance_parameters')
        .values({
          name: 'rateLimits.unverifiedWritesPerMinute',
          value: JSON.stringify(2),
          default_value: JSON.stringify(30),
          updated_by_proposal_id: null,
        })
        .execute();
      const key = generateAgentKey();
      await joinBot(t, key);
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await agentPost(t, key, { botId: key.botId, verified: false, i })).statusCode);
      assert.deepEqual(statuses, [202, 202, 429]);
    } finally {
      await t.close();
    }
  });

  test('a correctly signed request whose body fails validation uses its nonce: sent again it is 409 REPLAY_DETECTED (docs/adr/0013-human-signed-requests.md)', async () => {
    const t = await createTestApp();
    try {
      const body = { actorId: 'reader-x', verified: false, preferences: { feedMode: 'sideways' } };
      const headers = signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: '/v1/users/me/preferences', body });
      const first = await t.app.inject({ method: 'POST', url: '/v1/users/me/preferences', headers, payload: body });
      assert.equal(first.statusCode, 400);
      assert.equal(first.json().code, 'VALIDATION_FAILED');
      const again = await t.app.inject({ method: 'POST', url: '/v1/users/me/preferences', headers, payload: body });
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().code, 'REPLAY_DETECTED');
    } finally {
      await t.close();
    }
  });
});

describe('errors everywhere', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('unknown route: 404 NOT_FOUND with requestId and x-request-id', async () => {
    const res = await t.app.inject({ url: '/v1/nothing-here' });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().code, 'NOT_FOUND');
    assert.equal(res.json().requestId, res.headers['x-request-id']);
  });
  test('malformed JSON: 400 MALFORMED_JSON; another content type: 415', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/agents/join',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 'MALFORMED_JSON');
    const text = await t.app.inject({
      method: 'POST',
      url: '/v1/agents/join',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    assert.equal(text.statusCode, 415);
    assert.equal(text.json().code, 'UNSUPPORTED_MEDIA_TYPE');
  });
  test('a caller-supplied x-request-id is echoed when it is a sane token', async () => {
    const res = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'trace-abc_123' } });
    assert.equal(res.headers['x-request-id'], 'trace-abc_123');
    const weird = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'bad id with spaces' } });
    assert.notEqual(weird.headers['x-request-id'], 'bad id with spaces');
  });
  test('a __proto__ key in a body is refused with 400, never a 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/agents/join',
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__":{"x":1}}',
    });
    assert.equal(res.statusCode, 400);
  });
});

describe('admin allowlists as route options', () => {
  test('content and rewards admin routes: 403 off the list, linkedHumanId first, actorId as fallback, exact case', async () => {
    const adminRoutes: FastifyPluginAsync = async (app) => {
      app.post('/v1/test/content-admin', { config: { auth: { kind: 'human-write', admin: 'content' } } }, async (request) => ({
        ok: request.actor?.kind,
      }));
      app.get('/v1/test/rewards-admin', { config: { auth: { kind: 'human-read', admin: 'rewards' } } }, async () => ({ ok: true }));
    };
    const t = await createTestApp({ CONTENT_ADMIN_IDS: 'h_editor,desk-chief', REWARDS_ADMIN_IDS: 'h_treasurer' }, undefined, [adminRoutes]);
    try {
      await bindActor(t.db.database, 'someone', 'h_editor');
      await bindActor(t.db.database, 'desk-chief', 'h_other');
      await bindActor(t.db.database, 'x', 'h_treasurer');
      await bindActor(t.db.database, 'y', 'h_editor');
      const write = (body: Record<string, unknown>) =>
        t.app.inject({
          method: 'POST',
          url: '/v1/test/content-admin',
          headers: signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: '/v1/test/content-admin', body }),
          payload: body,
        });
      const read = (query: Record<string, string>) =>
        t.app.inject({
          url: `/v1/test/rewards-admin?${new URLSearchParams(query)}`,
          headers: signHumanRequest({ secret: TEST_SECRET, method: 'GET', path: '/v1/test/rewards-admin', query }),
        });
      assert.equal(
        (await write({ actorId: 'someone', verified: true, linkedHumanId: 'h_editor' })).statusCode,
        200,
        'linkedHumanId on the list',
      );
      assert.equal((await write({ actorId: 'desk-chief', verified: false })).statusCode, 200, 'actorId fallback');
      const denied = await write({ actorId: 'desk-chief', verified: true, linkedHumanId: 'h_other' });
      assert.equal(denied.statusCode, 403, 'linkedHumanId wins over a listed actorId');
      assert.equal(denied.json().code, 'CONTENT_ADMIN_REQUIRED');
      assert.equal((await write({ actorId: 'DESK-CHIEF', verified: false })).statusCode, 403, 'exact case');
      assert.equal((await read({ actorId: 'x', verified: 'true', linkedHumanId: 'h_treasurer' })).statusCode, 200);
      const notRewards = await read({ actorId: 'y', verified: 'true', linkedHumanId: 'h_editor' });
      assert.equal(notRewards.statusCode, 403);
      assert.equal(notRewards.json().code, 'REWARDS_ADMIN_REQUIRED');

      // an admin's linkedHumanId that the identity records do not bind to the signing actor counts for nothing
      for (const verified of [false, true]) {
        const borrowed = await write({ actorId: 'intruder', verified, linkedHumanId: 'h_editor' });
        assert.equal(borrowed.statusCode, 403, `verified=${verified}`);
        assert.equal(borrowed.json().code, 'LINKED_HUMAN_NOT_BOUND');
      }
      const borrowedRead = await read({ actorId: 'x', verified: 'true', linkedHumanId: 'h_editor' });
      assert.equal(borrowedRead.statusCode, 403, 'x is bound to h_treasurer, not h_editor');
      assert.equal(borrowedRead.json().code, 'LINKED_HUMAN_NOT_BOUND');
    } finally {
      await t.close();
    }
  });
});
