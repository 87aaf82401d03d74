import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createServiceClient, signHumanRequest, toQueryString } from '../../sdk/index.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../helpers/app.js';
import { bindActor } from '../helpers/identity.js';

const PREFS = '/v1/users/me/preferences';

describe('human signed writes and reads', () => {
  let t: TestApp;
  let base: string;

  before(async () => {
    t = await createTestApp({ HUMAN_SIGNING_SECRET_PREVIOUS: 'the-old-secret' });
    base = await t.listen();
  });
  after(() => t.close());

  async function write(body: unknown, headers: Record<string, string>, path = PREFS) {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown> & { code?: string; details?: { header?: string; code?: string }[] },
    };
  }
  async function read(query: Record<string, string>, headers: Record<string, string>, path = PREFS) {
    const res = await fetch(`${base}${path}${toQueryString(query)}`, { headers });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { code?: string } };
  }

  const body = (over: Record<string, unknown> = {}) => ({ actorId: 'reader-1', verified: false, preferences: { lang: 'de' }, ...over });

  test('a correctly signed write (202) and signed read (200) round-trip through the SDK client over HTTP', async () => {
    const client = createServiceClient({ baseUrl: base });
    const w = await client.humanWrite<{ preferences: { lang: string } }>(TEST_SECRET, PREFS, {
      actorId: 'sdk-user',
      verified: true,
      preferences: { lang: 'es', rooms: ['world'] },
    });
    assert.equal(w.status, 202);
    assert.deepEqual(w.body.preferences, { lang: 'es', rooms: ['world'] });
    const r = await client.humanRead<{ actorId: string; preferences: unknown }>(TEST_SECRET, PREFS, { actorId: 'sdk-user', verified: '1' });
    assert.equal(r.status, 200);
    assert.equal(r.body.actorId, 'sdk-user');
    assert.deepEqual(r.body.preferences, { lang: 'es', rooms: ['world'] });
    assert.ok(r.headers.get('x-request-id'));
  });

  test('the previous secret is accepted during rotation', async () => {
    const res = await write(body(), signHumanRequest({ secret: 'the-old-secret', method: 'POST', path: PREFS, body: body() }));
    assert.equal(res.status, 202);
  });

  const tampers: [string, () => { sent: unknown; headers: Record<string, string>; path?: string }][] = [
    ['method', () => ({ sent: body(), headers: signHumanRequest({ secret: TEST_SECRET, method: 'PUT', path: PREFS, body: body() }) })],
    [
      'path',
      () => ({
        sent: body(),
        headers: signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: '/v1/users/me/bookmarks', body: body() }),
      }),
    ],
    [
      'one body key',
      () => ({
        sent: body({ actorId: 'reader-2' }),
        headers: signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: PREFS, body: body() }),
      }),
    ],
    [
      'a nested body key',
      () => ({
        sent: body({ preferences: { lang: 'fr' } }),
        headers: signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: PREFS, body: body() }),
      }),
    ],
    [
      'timestamp',
      () => {
        const h = signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: PREFS, body: body() });
        return { sent: body(), headers: { ...h, 'x-timestamp': String(Number(h['x-timestamp']) - 1) } };
      },
    ],
    [
      'nonce',
      () => {
        const h = signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: PREFS, body: body() });
        return { sent: body(), headers: { ...h, 'x-nonce': `${h['x-nonce']}Z` } };
      },
    ],
    [
      'secret',
      () => ({ sent: body(), headers: signHumanRequest({ secret: 'not-the-secret', method: 'POST', path: PREFS, body: body() }) }),
    ],
    [
      'signature case (uppercase hex)',
      () => {
        const h = signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: PREFS, body: body() });
        return { sent: body(), headers: { ...h, 'x-signature': h['x-signature'].toUpperCase() } };
      },
    ],
  ];
  for (const [field, make] of tampers) {
    test(`tampered ${field}: 401 SIGNATURE_INVALID`, async () => {
      const { sent, headers } = make();
      const res = await write(sent, headers);
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'SIGNATURE_INVALID');
      assert.equal(typeof res.body.requestId, 'string');
    });
  }

  test('tampered query of a signed read: 401', async () => {
    const signedQuery = { actorId: 'reader-1', verified: 'false' };
    const headers = signHumanRequest({ secret: TEST_SECRET, method: 'GET', path: PREFS, query: signedQuery });
    const ok = await read(signedQuery, headers);
    assert.equal(ok.status, 200);
    const other = await read(
      { actorId: 'reader-2', verified: 'false' },
      signHumanRequest({ secret: TEST_SECRET, method: 'GET', path: PREFS, query: signedQuery }),
    );
    assert.equal(other.status, 401);
    assert.equal(other.body.code, 'SIGNATURE_INVALID');
    const added = await read(
      { ...signedQuery, linkedHumanId: 'h_x' },
      signHumanRequest({ secret: TEST_SECRET, method: 'GET', path: PREFS, query: signedQuery }),
    );
    assert.equal(added.status, 401);
  });

  test('the signed string is exactly timestamp.nonce.METHOD.path.canonicalBody (hand-built HMAC passes)', async () => {
    const ts = String(Date.now());
    const nonce = 'hand-built-nonce-1';
    const canonical = '{"actorId":"reader-9","preferences":{"lang":"fr","rooms":["b","a"]},"verified":false}';
    const signature = createHmac('sha256', TEST_SECRET).update(`${ts}.${nonce}.POST.${PREFS}.${canonical}`).digest('hex');
    const res = await write(
      { verified: false, preferences: { rooms: ['b', 'a'], lang: 'fr' }, actorId: 'reader-9' },
      { 'x-timestamp': ts, 'x-nonce': nonce, 'x-signature': signature },
    );
    assert.equal(res.status, 202);
  });

  test('skew outside the window is 401 with a TIMESTAMP_SKEW detail', async () => {
    const res = await write(
      body(),
      signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: PREFS, body: body(), timestamp: Date.now() - 300_001 - 1000 }),
    );
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'SIGNATURE_INVALID');
    assert.deepEqual(
      res.body.details?.map((d) => [d.header, d.code]),
      [['x-timestamp', 'TIMESTAMP_SKEW']],
    );
  });

  test('malformed headers each get a detail: seconds are not milliseconds only when out of skew; short nonce; non-hex signature', async () => {
    const h = signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: PREFS, body: body() });
    const res = await write(body(), { 'x-timestamp': 'yesterday', 'x-nonce': 'short', 'x-signature': 'zz' + h['x-signature'].slice(2) });
    assert.equal(res.status, 401);
    assert.deepEqual(
      res.body.details?.map((d) => [d.header, d.code]),
      [
        ['x-timestamp', 'MALFORMED'],
        ['x-nonce', 'MALFORMED'],
        ['x-signature', 'MALFORMED'],
      ],
    );
    const missing = await write(body(), {});
    assert.equal(missing.status, 401);
    assert.equal(missing.body.details?.length, 3);
  });

  test('a replayed nonce is 409 REPLAY_DETECTED, also on another route', async () => {
    const headers = signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: PREFS, body: body(), nonce: 'nonce-used-once-001' });
    assert.equal((await write(body(), headers)).status, 202);
    const again = await write(body(), headers);
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'REPLAY_DETECTED');
    const query = { actorId: 'reader-1', verified: 'false' };
    const elsewhere = await read(
      query,
      signHumanRequest({ secret: TEST_SECRET, method: 'GET', path: PREFS, query, nonce: 'nonce-used-once-001' }),
    );
    assert.equal(elsewhere.status, 409);
  });

  test('actor fields are validated after the signature: bad verified in a query is 400', async () => {
    const query = { actorId: 'reader-1', verified: 'yes' };
    const res = await read(query, signHumanRequest({ secret: TEST_SECRET, method: 'GET', path: PREFS, query }));
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'VALIDATION_FAILED');
  });

  test('an unknown body property is 400 VALIDATION_FAILED with its path', async () => {
    const b = body({ tier: 'L3' });
    const res = await write(b, signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: PREFS, body: b }));
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'VALIDATION_FAILED');
    assert.deepEqual(res.body.details, [{ path: '/tier', message: 'unknown property' }]);
  });

  test('a claimed tier is never trusted: the actor tier comes from identity records', async () => {
    await bindActor(t.db.database, 'reader-t', 'h_recorded', 'L2');
    const seen: string[] = [];
    const probe = await createTestApp({}, t.db, [
      async (app) => {
        app.post('/v1/test/whoami', { config: { auth: { kind: 'human-write' } } }, async (request) => {
          seen.push(request.actor?.kind === 'human' ? request.actor.tier : 'none');
          return { ok: true };
        });
      },
    ]);
    try {
      for (const [linkedHumanId, verified, status] of [
        ['h_recorded', true, 200],
        ['h_unknown', true, 403],
        ['h_recorded', false, 200],
        [undefined, true, 200],
      ] as const) {
        const b = { actorId: 'reader-t', verified, linkedHumanId };
        const res = await probe.app.inject({
          method: 'POST',
          url: '/v1/test/whoami',
          headers: signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: '/v1/test/whoami', body: b }),
          payload: b,
        });
        assert.equal(res.statusCode, status, `${linkedHumanId} ${verified}`);
      }
      assert.deepEqual(seen, ['L2', 'L0', 'L0']);
    } finally {
      await probe.close();
    }
  });
});

describe('without HUMAN_SIGNING_SECRET', () => {
  test('signed routes answer 503 SIGNING_SECRET_UNAVAILABLE', async () => {
    const t = await createTestApp({ HUMAN_SIGNING_SECRET: '' });
    try {
      const b = { actorId: 'a', verified: false, preferences: {} };
      const res = await t.app.inject({
        method: 'POST',
        url: PREFS,
        headers: signHumanRequest({ secret: 'anything', method: 'POST', path: PREFS, body: b }),
        payload: b,
      });
      assert.equal(res.statusCode, 503);
      assert.equal(res.json().code, 'SIGNING_SECRET_UNAVAILABLE');
      const r = await t.app.inject({ method: 'GET', url: `${PREFS}?actorId=a&verified=0` });
      assert.equal(r.statusCode, 503);
    } finally {
      await t.close();
    }
  });
});
