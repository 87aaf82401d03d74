import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { PGLITE_EXTENSIONS } from '../../src/platform/db/database.js';
import { generateAgentKey, signAgentRequest } from '../../sdk/index.js';
import {
  TEST_OPS_TOKEN,
  createTestApp,
  createTestDatabase,
  testEnv,
  usingRealPostgres,
  usingRealRedis,
  type TestApp,
} from '../helpers/app.js';
import { clonePgliteDir } from '../helpers/db-template.js';
import { needsRedis } from '../helpers/needs.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

interface Check {
  ok: boolean;
  required: boolean;
  latencyMs?: number;
  detail?: string;
}
interface Readiness {
  status: 'ready' | 'not_ready';
  checkedAt: string;
  checks: { database: Check; migrations: Check; signingSecret: Check; redis?: Check };
}

async function readyz(app: FastifyInstance) {
  const res = await app.inject({ method: 'GET', url: '/readyz' });
  return { status: res.statusCode, body: res.json() as Readiness, headers: res.headers };
}

/** Polls /readyz until it answers `status` (or the deadline passes) and returns the last answer. */
async function readyzUntil(app: FastifyInstance, status: number, deadlineMs: number) {
  const until = Date.now() + deadlineMs;
  let last = await readyz(app);
  while (last.status !== status && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    last = await readyz(app);
  }
  return last;
}

/** One sample of a Prometheus text exposition: the value of `name` whose labels include `labels`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const found: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) found[l[1]!] = l[2]!;
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(m[3]);
  }
  return undefined;
}

async function metricsText(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/metrics', headers: { 'x-operations-token': TEST_OPS_TOKEN } });
  assert.equal(res.statusCode, 200);
  return res.body;
}

/** A TCP port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address !== 'object') throw new Error('no port');
  return address.port;
}

describe('liveness and readiness', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('/healthz answers 200 {status: ok} with an x-request-id header', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
    assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const other = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.notEqual(other.headers['x-request-id'], res.headers['x-request-id']);
  });

  test('/healthz keeps a sane incoming x-request-id and replaces an unsafe one', async () => {
    const kept = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'lb-1234.abc:9' } });
    assert.equal(kept.headers['x-request-id'], 'lb-1234.abc:9');
    const replaced = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id\twith "quotes"' } });
    assert.match(String(replaced.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  test('/readyz answers 200 ready with the database, migrations and signing secret checks (and redis when configured)', async () => {
    // polled as an orchestrator does: each check has 1 s, which a just-opened embedded database on a loaded
    // machine can miss once
    const { status, body, headers } = await readyzUntil(t.app, 200, 10_000);
    assert.equal(status, 200, JSON.stringify(body));
    assert.ok(headers['x-request-id']);
    assert.equal(body.status, 'ready');
    assert.ok(!Number.isNaN(Date.parse(body.checkedAt)));
    assert.equal(body.checks.database.ok, true);
    assert.equal(body.checks.database.required, true);
    assert.equal(typeof body.checks.database.latencyMs, 'number');
    assert.equal(body.checks.migrations.ok, true);
    assert.equal(body.checks.migrations.detail, 'all applied');
    assert.equal(body.checks.signingSecret.ok, true);
    assert.equal(body.checks.signingSecret.required, false, 'the secret is required only when fail-closed');
    if (usingRealRedis) {
      assert.ok(body.checks.redis, 'redis is checked when configured');
      assert.equal(body.checks.redis.ok, true);
      assert.equal(body.checks.redis.required, true);
    } else {
      assert.equal(body.checks.redis, undefined, 'no redis check without redis');
    }
  });
});

describe('readiness without HUMAN_SIGNING_SECRET', () => {
  test('outside production: signingSecret.ok is false, not required, and the service stays ready (200)', async () => {
    const t = await createTestApp({ HUMAN_SIGNING_SECRET: '' });
    try {
      // polled (above); a missing secret that were required would keep it at 503 throughout
      const { status, body } = await readyzUntil(t.app, 200, 10_000);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.status, 'ready');
      assert.equal(body.checks.signingSecret.ok, false);
      assert.equal(body.checks.signingSecret.required, false);
      assert.match(body.checks.signingSecret.detail ?? '', /HUMAN_SIGNING_SECRET/);
    } finally {
      await t.close();
    }
  });

  // A fail-closed deployment needs Redis stores, so this runs where the suite has a Redis server.
  test(
    'on a public deployment: the missing secret is required and makes the service not ready (503)',
    { skip: needsRedis('a public (fail-closed) deployment refuses memory stores') },
    async () => {
      const t = await createTestApp({ HUMAN_SIGNING_SECRET: '', PUBLIC_DEPLOYMENT: '1' });
      try {
        const { status, body } = await readyz(t.app);
        assert.equal(status, 503);
        assert.equal(body.status, 'not_ready');
        assert.equal(body.checks.signingSecret.ok, false);
        assert.equal(body.checks.signingSecret.required, true);
        assert.equal(body.checks.database.ok, true);
      } finally {
        await t.close();
      }
    },
  );
});

describe('readiness when Redis is unreachable', () => {
  test('503 not_ready with checks.redis.ok false; the database is still fine; nonce_store_up is 0', async () => {
    const port = await closedPort();
    const t = await createTestApp({
      REDIS_URL: `redis://127.0.0.1:${port}`,
      NONCE_STORE_DRIVER: 'redis',
      RATE_LIMIT_STORE_DRIVER: 'redis',
    });
    try {
      const started = Date.now();
      const { status, body } = await readyz(t.app);
      assert.equal(status, 503);
      assert.equal(body.status, 'not_ready');
      assert.ok(body.checks.redis);
      assert.equal(body.checks.redis.ok, false);
      assert.equal(body.checks.redis.required, true);
      assert.equal(body.checks.database.ok, true);
      assert.ok(Date.now() - started < 3_000, 'the redis check has a deadline');
      assert.equal(sample(await metricsText(t.app), 'nonce_store_up', { driver: 'redis' }), 0);
    } finally {
      await t.close();
    }
  });
});

/** A PostgreSQL server for the outage test: a new database on the test server, or PGlite over the wire. */
async function startBackend(): Promise<{ url: URL; stop(): Promise<void> }> {
  if (usingRealPostgres) {
    const db = await createTestDatabase();
    return { url: new URL(db.url!), stop: () => db.drop() };
  }
  // a copy of the migrated template (a fresh PGlite would spend seconds in initdb)
  const copy = await clonePgliteDir();
  const pglite = new PGlite(copy.dir, { extensions: PGLITE_EXTENSIONS });
  await pglite.waitReady;
  const server = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 32 });
  await server.start();
  const port = server.getServerConn().split(':').pop();
  return {
    url: new URL(`postgres://postgres@127.0.0.1:${port}/postgres`),
    async stop() {
      await server.stop();
      await pglite.close();
      copy.remove();
    },
  };
}

describe('readiness follows a database outage (TCP proxy between the app and PostgreSQL)', () => {
  let backend: Awaited<ReturnType<typeof startBackend>>;
  let proxy: TcpProxy;
  let app: FastifyInstance;

  before(async () => {
    backend = await startBackend();
    proxy = await startTcpProxy({ host: backend.url.hostname, port: Number(backend.url.port || 5432) });
    const viaProxy = new URL(backend.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    // the app opens its own pool through the proxy and checks the migrations through it
    app = await buildApp(loadConfig(testEnv({ DATABASE_URL: viaProxy.toString(), DATABASE_POOL_MAX: '4' })), { logger: false });
  });
  after(async () => {
    proxy.restore();
    await app?.close();
    await proxy?.close();
    await backend?.stop();
  });

  test('200 while connected, 503 (database.ok false) while cut, 200 again once restored', async () => {
    const before = await readyz(app);
    assert.equal(before.status, 200, JSON.stringify(before.body));
    assert.equal(before.body.checks.database.ok, true);
    assert.ok(proxy.open > 0, 'the app talks to the database through the proxy');

    proxy.cut();
    const cutAt = Date.now();
    const down = await readyzUntil(app, 503, 5_000);
    assert.equal(down.status, 503, JSON.stringify(down.body));
    assert.equal(down.body.status, 'not_ready');
    assert.equal(down.body.checks.database.ok, false);
    assert.equal(down.body.checks.database.required, true);
    assert.ok(down.body.checks.database.detail, 'the failed check says why');
    assert.equal(down.body.checks.migrations.ok, false);
    assert.ok(Date.now() - cutAt < 4_000, `the outage is reported quickly (${Date.now() - cutAt} ms)`);

    // still down on the next probe: new connections are refused, not only the old ones dropped
    const acceptedBefore = proxy.accepted;
    const stillDown = await readyz(app);
    assert.equal(stillDown.status, 503);
    assert.equal(stillDown.body.checks.database.ok, false);
    assert.ok(proxy.accepted > acceptedBefore, 'the pool tried to reconnect');
    assert.equal(sample(await metricsText(app), 'db_up'), 0);

    proxy.restore();
    const back = await readyzUntil(app, 200, 8_000);
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.equal(back.body.status, 'ready');
    assert.equal(back.body.checks.database.ok, true);
    assert.equal(back.body.checks.migrations.ok, true);
    assert.equal(sample(await metricsText(app), 'db_up'), 1);
  });
});

describe('/metrics', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('401 without the operations token or with a wrong one', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(none.statusCode, 401);
    assert.equal(none.json().code, 'OPERATIONS_ACCESS_REQUIRED');
    assert.doesNotMatch(none.body, /http_requests_total/);
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-operations-token': `${TEST_OPS_TOKEN}x` } });
    assert.equal(wrong.statusCode, 401);
    const apiKey = await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-api-key': 'test-public-api-key' } });
    assert.equal(apiKey.statusCode, 401);
  });

  test('200 with x-operations-token (or Bearer) and every service metric in the Prometheus text', async () => {
    await t.app.inject({ method: 'GET', url: '/healthz' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-operations-token': TEST_OPS_TOKEN } });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    for (const name of [
      'http_requests_total',
      'http_request_duration_seconds',
      'signature_failures_total',
      'nonce_store_up',
      'db_pool_connections',
    ]) {
      assert.match(res.body, new RegExp(`^# TYPE ${name} `, 'm'), `${name} is exported`);
    }
    assert.ok((sample(res.body, 'http_requests_total', { method: 'GET', route: '/healthz', status: '200' }) ?? 0) >= 1);
    assert.ok((sample(res.body, 'http_request_duration_seconds_count', { method: 'GET', route: '/healthz', status: '200' }) ?? 0) >= 1);
    assert.equal(sample(res.body, 'nonce_store_up', { driver: usingRealRedis ? 'redis' : 'memory' }), 1);
    assert.ok(sample(res.body, 'db_pool_connections', { state: 'total' }) !== undefined);
    assert.equal(sample(res.body, 'db_up'), 1);

    const bearer = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TEST_OPS_TOKEN}` } });
    assert.equal(bearer.statusCode, 200);
    assert.match(bearer.body, /http_requests_total/);
  });

  test('a failed agent signature is counted as signature_failures_total{scheme="agent",code="AGENT_SIGNED_HEADERS_INVALID"}', async () => {
    const labels = { scheme: 'agent', code: 'AGENT_SIGNED_HEADERS_INVALID' };
    const before = sample(await metricsText(t.app), 'signature_failures_total', labels) ?? 0;

    const key = generateAgentKey();
    const body = { publicKey: key.publicKey, name: 'metrics bot' };
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/v1/agents/join',
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
    assert.equal(unsigned.statusCode, 401);
    assert.equal(unsigned.json().code, 'AGENT_SIGNED_HEADERS_INVALID');
    const headers = signAgentRequest({ key, method: 'POST', path: '/v1/agents/join', body });
    const badTimestamp = await t.app.inject({
      method: 'POST',
      url: '/v1/agents/join',
      headers: { 'content-type': 'application/json', ...headers, 'x-agent-timestamp': 'yesterday' },
      payload: body,
    });
    assert.equal(badTimestamp.json().code, 'AGENT_SIGNED_HEADERS_INVALID');

    const text = await metricsText(t.app);
    assert.equal(sample(text, 'signature_failures_total', labels), before + 2);
    assert.equal(sample(text, 'http_requests_total', { method: 'POST', route: '/v1/agents/join', status: '401' }), 2);
  });

  test('a wrong agent signature and a failed human signature are counted under their own codes', async () => {
    const key = generateAgentKey();
    const body = { publicKey: key.publicKey, name: 'metrics bot' };
    const forged = signAgentRequest({ key: generateAgentKey(), method: 'POST', path: '/v1/agents/join', body });
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/agents/join',
      headers: { 'content-type': 'application/json', ...forged },
      payload: body,
    });
    assert.equal(res.json().code, 'AGENT_SIGNATURE_INVALID');

    const human = await t.app.inject({
      method: 'POST',
      url: '/v1/users/me/preferences',
      headers: {
        'content-type': 'application/json',
        'x-timestamp': String(Date.now()),
        'x-nonce': 'nonce-12345678',
        'x-signature': 'a'.repeat(64),
      },
      payload: { actorId: 'u1', verified: false, preferences: {} },
    });
    assert.equal(human.statusCode, 401);
    assert.equal(human.json().code, 'SIGNATURE_INVALID');

    const text = await metricsText(t.app);
    assert.equal(sample(text, 'signature_failures_total', { scheme: 'agent', code: 'AGENT_SIGNATURE_INVALID' }), 1);
    assert.equal(sample(text, 'signature_failures_total', { scheme: 'human', code: 'SIGNATURE_INVALID' }), 1);
  });
});
