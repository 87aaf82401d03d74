import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { agentSigningMessage, generateAgentKey, signAgentRequest, type AgentKey } from '../../sdk/index.js';
import { sign } from 'node:crypto';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../helpers/app.js';
import { echoRoute } from '../helpers/echo-route.js';
import { testRedisPrefix } from '../helpers/redis.js';

function registryEnv(bots: { botId: string; keys: AgentKey[]; permissions?: string[]; verified?: boolean }[]) {
  return {
    AGENT_BOT_REGISTRY: JSON.stringify(
      bots.map((b) => ({
        botId: b.botId,
        publicKeys: b.keys.map((k, i) => ({ version: i + 1, publicKey: k.publicKey })),
        permissions: b.permissions ?? ['candidates:submit'],
        verified: b.verified ?? false,
      })),
    ),
  };
}

async function post(app: FastifyInstance, path: string, body: unknown, headers: Record<string, string>) {
  const res = await app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
  return {
    status: res.statusCode,
    body: res.json() as Record<string, unknown> & { code?: string; details?: { header: string; code: string }[] },
  };
}

async function join(app: FastifyInstance, key: AgentKey, name = 'Test bot') {
  const body = { publicKey: key.publicKey, name };
  return post(app, '/v1/agents/join', body, signAgentRequest({ key, method: 'POST', path: '/v1/agents/join', body }));
}

describe('agent signed writes', () => {
  let t: TestApp;
  const registryBotKeys = [generateAgentKey(), generateAgentKey()];
  const registryBotId = `bot_${randomBytes(16).toString('hex')}`;

  before(async () => {
    t = await createTestApp(registryEnv([{ botId: registryBotId, keys: registryBotKeys }]), undefined, [echoRoute]);
  });
  after(() => t.close());

  test('join admits a new bot as unverified with botId derived from the key (202), and again answers 200 with the same bot', async () => {
    const key = generateAgentKey();
    const first = await join(t.app, key);
    assert.equal(first.status, 202);
    assert.equal(first.body.botId, key.botId);
    assert.equal(first.body.trustTier, 'UNVERIFIED');
    assert.equal(first.body.keyVersion, 1);
    assert.ok(Array.isArray(first.body.permissions));
    const again = await join(t.app, key);
    assert.equal(again.status, 200);
    assert.equal(again.body.botId, key.botId);
  });

  test('a joined bot can write; the handler sees a typed agent actor', async () => {
    const key = generateAgentKey();
    await join(t.app, key);
    const body = { botId: key.botId, verified: false, text: 'hello' };
    const res = await post(t.app, '/v1/test/echo', body, signAgentRequest({ key, method: 'POST', path: '/v1/test/echo', body }));
    assert.equal(res.status, 202);
    assert.deepEqual(res.body.actor, {
      kind: 'agent',
      botId: key.botId,
      verified: false,
      keyVersion: 1,
      permissions: (res.body.actor as { permissions: string[] }).permissions,
    });
  });

  test('an unknown bot is 401 AGENT_BOT_UNREGISTERED', async () => {
    const key = generateAgentKey();
    const body = { botId: key.botId, verified: false };
    const res = await post(t.app, '/v1/test/echo', body, signAgentRequest({ key, method: 'POST', path: '/v1/test/echo', body }));
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'AGENT_BOT_UNREGISTERED');
  });

  describe('each single-field tamper fails', () => {
    let key: AgentKey;
    const path = '/v1/test/echo';
    before(async () => {
      key = generateAgentKey();
      await join(t.app, key);
    });
    const body = () => ({ botId: key.botId, verified: false, title: 'original', n: 1 });

    const cases: [string, () => { sendPath: string; sendBody: unknown; headers: Record<string, string> }, number, string][] = [
      [
        'method',
        () => ({ sendPath: path, sendBody: body(), headers: signAgentRequest({ key, method: 'PUT', path, body: body() }) }),
        401,
        'AGENT_SIGNATURE_INVALID',
      ],
      [
        'path',
        () => ({
          sendPath: path,
          sendBody: body(),
          headers: signAgentRequest({ key, method: 'POST', path: '/v1/test/echo2', body: body() }),
        }),
        401,
        'AGENT_SIGNATURE_INVALID',
      ],
      [
        'one body key',
        () => ({
          sendPath: path,
          sendBody: { ...body(), title: 'changed' },
          headers: signAgentRequest({ key, method: 'POST', path, body: body() }),
        }),
        401,
        'AGENT_SIGNATURE_INVALID',
      ],
      [
        'an added body key',
        () => ({
          sendPath: path,
          sendBody: { ...body(), extra: true },
          headers: signAgentRequest({ key, method: 'POST', path, body: body() }),
        }),
        401,
        'AGENT_SIGNATURE_INVALID',
      ],
      [
        'timestamp',
        () => {
          const headers = signAgentRequest({ key, method: 'POST', path, body: body() });
          return {
            sendPath: path,
            sendBody: body(),
            headers: { ...headers, 'x-agent-timestamp': String(Number(headers['x-agent-timestamp']) + 1) },
          };
        },
        401,
        'AGENT_SIGNATURE_INVALID',
      ],
      [
        'nonce',
        () => {
          const headers = signAgentRequest({ key, method: 'POST', path, body: body() });
          return { sendPath: path, sendBody: body(), headers: { ...headers, 'x-agent-nonce': `${headers['x-agent-nonce']}x` } };
        },
        401,
        'AGENT_SIGNATURE_INVALID',
      ],
      [
        'aud',
        () => ({
          sendPath: path,
          sendBody: body(),
          headers: signAgentRequest({ key, aud: 'other-service', method: 'POST', path, body: body() }),
        }),
        401,
        'AGENT_SIGNATURE_INVALID',
      ],
      [
        'signing key',
        () => ({
          sendPath: path,
          sendBody: body(),
          headers: signAgentRequest({ key: generateAgentKey(), method: 'POST', path, body: body() }),
        }),
        401,
        'AGENT_SIGNATURE_INVALID',
      ],
      [
        'legacy message without aud',
        () => {
          const timestamp = String(Date.now());
          const nonce = randomBytes(12).toString('base64url');
          const legacy = agentSigningMessage('', timestamp, nonce, 'POST', path, body()).replace('svc-agent-v1:.', '');
          const signature = sign(null, Buffer.from(legacy), key.privateKey).toString('base64url');
          return {
            sendPath: path,
            sendBody: body(),
            headers: { 'x-agent-timestamp': timestamp, 'x-agent-nonce': nonce, 'x-agent-signature': signature },
          };
        },
        401,
        'AGENT_SIGNATURE_INVALID',
      ],
    ];

    for (const [field, make, status, code] of cases) {
      test(`tampered ${field}: ${status} ${code}`, async () => {
        const { sendPath, sendBody, headers } = make();
        const res = await post(t.app, sendPath, sendBody, headers);
        assert.equal(res.status, status);
        assert.equal(res.body.code, code);
        assert.equal(typeof res.body.requestId, 'string');
      });
    }

    test('the untampered request passes (control)', async () => {
      const res = await post(t.app, path, body(), signAgentRequest({ key, method: 'POST', path, body: body() }));
      assert.equal(res.status, 202);
    });

    test('a forged request does not burn the nonce of the real client', async () => {
      const nonce = randomBytes(12).toString('base64url');
      const forged = await post(
        t.app,
        path,
        { ...body(), n: 2 },
        signAgentRequest({ key: generateAgentKey(), method: 'POST', path, body: body(), nonce }),
      );
      assert.equal(forged.status, 401);
      const real = await post(t.app, path, body(), signAgentRequest({ key, method: 'POST', path, body: body(), nonce }));
      assert.equal(real.status, 202);
    });
  });

  describe('header validation gives one details entry per bad header', () => {
    const path = '/v1/test/echo';
    const key = generateAgentKey();
    const body = { botId: key.botId, verified: false };
    const good = () => signAgentRequest({ key, method: 'POST', path, body });

    const cases: [string, (h: Record<string, string>) => Record<string, string>, { header: string; code: string }[]][] = [
      [
        'missing everything',
        () => ({}),
        [
          { header: 'x-agent-timestamp', code: 'MISSING' },
          { header: 'x-agent-nonce', code: 'MISSING' },
          { header: 'x-agent-signature', code: 'MISSING' },
        ],
      ],
      [
        'non-numeric timestamp',
        (h) => ({ ...h, 'x-agent-timestamp': '2026-11-22T10:00:00Z' }),
        [{ header: 'x-agent-timestamp', code: 'MALFORMED' }],
      ],
      [
        'timestamp outside the skew window',
        (h) => ({ ...h, 'x-agent-timestamp': String(Date.now() - 301_000) }),
        [{ header: 'x-agent-timestamp', code: 'TIMESTAMP_SKEW' }],
      ],
      [
        'timestamp in the future beyond skew',
        (h) => ({ ...h, 'x-agent-timestamp': String(Date.now() + 301_000) }),
        [{ header: 'x-agent-timestamp', code: 'TIMESTAMP_SKEW' }],
      ],
      ['nonce of 7 characters', (h) => ({ ...h, 'x-agent-nonce': 'abcdefg' }), [{ header: 'x-agent-nonce', code: 'OUT_OF_RANGE' }]],
      ['nonce of 201 characters', (h) => ({ ...h, 'x-agent-nonce': 'a'.repeat(201) }), [{ header: 'x-agent-nonce', code: 'OUT_OF_RANGE' }]],
      [
        'signature of 63 bytes',
        (h) => ({ ...h, 'x-agent-signature': randomBytes(63).toString('base64url') }),
        [{ header: 'x-agent-signature', code: 'OUT_OF_RANGE' }],
      ],
      [
        'signature of 65 bytes',
        (h) => ({ ...h, 'x-agent-signature': randomBytes(65).toString('base64url') }),
        [{ header: 'x-agent-signature', code: 'OUT_OF_RANGE' }],
      ],
      [
        'signature not base64url',
        (h) => ({ ...h, 'x-agent-signature': '!!!not*base64!!!' }),
        [{ header: 'x-agent-signature', code: 'MALFORMED' }],
      ],
      ['key version not a number', (h) => ({ ...h, 'x-agent-key-version': 'v2' }), [{ header: 'x-agent-key-version', code: 'MALFORMED' }]],
      [
        'three bad headers at once',
        (h) => ({ ...h, 'x-agent-timestamp': 'soon', 'x-agent-nonce': 'short', 'x-agent-signature': 'AAAA' }),
        [
          { header: 'x-agent-timestamp', code: 'MALFORMED' },
          { header: 'x-agent-nonce', code: 'OUT_OF_RANGE' },
          { header: 'x-agent-signature', code: 'OUT_OF_RANGE' },
        ],
      ],
    ];
    for (const [name, mutate, expected] of cases) {
      test(name, async () => {
        const res = await post(t.app, path, body, mutate(good()));
        assert.equal(res.status, 401);
        assert.equal(res.body.code, 'AGENT_SIGNED_HEADERS_INVALID');
        assert.deepEqual(
          res.body.details?.map((d) => ({ header: d.header, code: d.code })),
          expected,
        );
        for (const d of res.body.details ?? []) assert.equal(typeof (d as { message?: string }).message, 'string');
      });
    }
  });

  describe('key versions', () => {
    const path = '/v1/test/echo';
    const body = () => ({ botId: registryBotId, verified: false });

    test('a bot with several keys must name the version: missing is 401 with an x-agent-key-version detail', async () => {
      const res = await post(t.app, path, body(), signAgentRequest({ key: registryBotKeys[1]!, method: 'POST', path, body: body() }));
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'AGENT_SIGNED_HEADERS_INVALID');
      assert.deepEqual(
        res.body.details?.map((d) => [d.header, d.code]),
        [['x-agent-key-version', 'MISSING']],
      );
    });

    test('the right version verifies; each key only under its own version', async () => {
      const ok = await post(
        t.app,
        path,
        body(),
        signAgentRequest({ key: registryBotKeys[1]!, keyVersion: 2, method: 'POST', path, body: body() }),
      );
      assert.equal(ok.status, 202);
      assert.equal((ok.body.actor as { keyVersion: number }).keyVersion, 2);
      const swapped = await post(
        t.app,
        path,
        body(),
        signAgentRequest({ key: registryBotKeys[1]!, keyVersion: 1, method: 'POST', path, body: body() }),
      );
      assert.equal(swapped.status, 401);
      assert.equal(swapped.body.code, 'AGENT_SIGNATURE_INVALID');
    });

    test('a version the bot does not have is 401 OUT_OF_RANGE', async () => {
      const res = await post(
        t.app,
        path,
        body(),
        signAgentRequest({ key: registryBotKeys[0]!, keyVersion: 7, method: 'POST', path, body: body() }),
      );
      assert.equal(res.status, 401);
      assert.deepEqual(
        res.body.details?.map((d) => [d.header, d.code]),
        [['x-agent-key-version', 'OUT_OF_RANGE']],
      );
    });
  });

  test('a replayed nonce is 409 REPLAY_DETECTED, on the same instance', async () => {
    const key = generateAgentKey();
    await join(t.app, key);
    const body = { botId: key.botId, verified: false };
    const headers = signAgentRequest({ key, method: 'POST', path: '/v1/test/echo', body });
    assert.equal((await post(t.app, '/v1/test/echo', body, headers)).status, 202);
    const replay = await post(t.app, '/v1/test/echo', body, headers);
    assert.equal(replay.status, 409);
    assert.equal(replay.body.code, 'REPLAY_DETECTED');
  });

  test('verified: true from a bot that never verified is 403 AGENTPROOF_VERIFICATION_FAILED', async () => {
    const key = generateAgentKey();
    await join(t.app, key);
    const body = { botId: key.botId, verified: true };
    const res = await post(t.app, '/v1/test/echo', body, signAgentRequest({ key, method: 'POST', path: '/v1/test/echo', body }));
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'AGENTPROOF_VERIFICATION_FAILED');
    assert.ok(Array.isArray(res.body.details) && res.body.details.length === 1);
  });

  test('a registry bot without the route permission is 403 AGENT_PERMISSION_DENIED', async () => {
    const key = generateAgentKey();
    const botId = `bot_${randomBytes(16).toString('hex')}`;
    const other = await createTestApp(registryEnv([{ botId, keys: [key], permissions: ['attestations:write'] }]), undefined, [echoRoute]);
    try {
      const body = { botId, verified: false };
      const res = await post(other.app, '/v1/test/echo', body, signAgentRequest({ key, method: 'POST', path: '/v1/test/echo', body }));
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 'AGENT_PERMISSION_DENIED');
    } finally {
      await other.close();
    }
  });

  test('AGENT_REQUIRE_VERIFIED=1: an unverified write is 403 AGENT_VERIFIED_REQUIRED; a verified registry bot passes', async () => {
    const plain = generateAgentKey();
    const trusted = generateAgentKey();
    const trustedId = `bot_${randomBytes(16).toString('hex')}`;
    const strict = await createTestApp(
      { AGENT_REQUIRE_VERIFIED: '1', ...registryEnv([{ botId: trustedId, keys: [trusted], verified: true }]) },
      undefined,
      [echoRoute],
    );
    try {
      assert.equal((await join(strict.app, plain)).status, 202, 'joining stays open');
      const body = { botId: plain.botId, verified: false };
      const denied = await post(
        strict.app,
        '/v1/test/echo',
        body,
        signAgentRequest({ key: plain, method: 'POST', path: '/v1/test/echo', body }),
      );
      assert.equal(denied.status, 403);
      assert.equal(denied.body.code, 'AGENT_VERIFIED_REQUIRED');
      const ok = { botId: trustedId, verified: true };
      const passed = await post(
        strict.app,
        '/v1/test/echo',
        ok,
        signAgentRequest({ key: trusted, method: 'POST', path: '/v1/test/echo', body: ok }),
      );
      assert.equal(passed.status, 202);
      assert.equal((passed.body.actor as { verified: boolean }).verified, true);
    } finally {
      await strict.close();
    }
  });

  test('AGENT_SELF_SERVE_JOIN=0: join answers 403', async () => {
    const closed = await createTestApp({ AGENT_SELF_SERVE_JOIN: '0' });
    try {
      const res = await join(closed.app, generateAgentKey());
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 'AGENT_SELF_SERVE_JOIN_DISABLED');
    } finally {
      await closed.close();
    }
  });

  test('join rejects unknown body properties and a key that is not 32 bytes with 400', async () => {
    const key = generateAgentKey();
    const extra = { publicKey: key.publicKey, name: 'x', trustTier: 'VERIFIED' };
    const res = await post(
      t.app,
      '/v1/agents/join',
      extra,
      signAgentRequest({ key, method: 'POST', path: '/v1/agents/join', body: extra }),
    );
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'VALIDATION_FAILED');
    const short = { publicKey: randomBytes(31).toString('base64url'), name: 'x' };
    const res2 = await post(
      t.app,
      '/v1/agents/join',
      short,
      signAgentRequest({ key, method: 'POST', path: '/v1/agents/join', body: short }),
    );
    assert.equal(res2.status, 400);
  });
});

// A nonce used on one instance and replayed on another: test/platform/redis-topologies.test.ts, on each Redis
// deployment.
describe('two instances on one database', () => {
  let shared: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  const prefix = testRedisPrefix();

  before(async () => {
    shared = await createTestDatabase();
    a = await createTestApp({ REDIS_KEY_PREFIX: prefix }, shared, [echoRoute]);
    b = await createTestApp({ REDIS_KEY_PREFIX: prefix }, shared, [echoRoute]);
  });
  after(async () => {
    await a.close();
    await b.close();
    await shared.drop();
  });

  test('a bot that joined through instance A can write through instance B (bots live in the database)', async () => {
    const key = generateAgentKey();
    assert.equal((await join(a.app, key)).status, 202);
    const body = { botId: key.botId, verified: false };
    const res = await post(b.app, '/v1/test/echo', body, signAgentRequest({ key, method: 'POST', path: '/v1/test/echo', body }));
    assert.equal(res.status, 202);
  });
});
