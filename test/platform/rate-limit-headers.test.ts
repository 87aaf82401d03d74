import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createServiceClient, rateLimitOf } from '../../sdk/index.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../helpers/app.js';
import type { Json } from '../helpers/json.js';
import { newsroomClient } from '../helpers/newsroom.js';

/**
 * The IETF RateLimit and RateLimit-Policy fields: every answer of a limited route tells its budget, a 429 too;
 * the document declares them; the SDK reads them.
 */

const RATE_LIMIT = /^"([a-z-]+)";r=(\d+);t=(\d+)$/;

describe('RateLimit and RateLimit-Policy on every limited route', () => {
  let t: TestApp;
  let storyId = '';
  before(async () => {
    t = await createTestApp({
      RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '3',
      RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '500',
      RATE_LIMIT_AGENT_JOINS_PER_MINUTE: '50',
    });
    await t.listen();
    storyId = (await newsroomClient(t.baseUrl).publishedStory()).storyId;
  });
  after(async () => t?.close());

  test('a read counts against "reads" per address: each answer says what is left, a cached one too', async () => {
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${t.baseUrl}/v1/stories/${storyId}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('ratelimit-policy'), '"reads";q=500;w=60');
      const [, policy, remaining, reset] = RATE_LIMIT.exec(res.headers.get('ratelimit') ?? '') ?? [];
      assert.equal(policy, 'reads', res.headers.get('ratelimit') ?? 'no RateLimit');
      assert.ok(Number(reset) >= 0 && Number(reset) <= 60);
      seen.push(Number(remaining));
      if (i === 2) assert.equal(res.headers.get('x-read-cache'), 'hit');
    }
    assert.deepEqual(
      seen.slice(1).map((r, i) => seen[i]! - r),
      [1, 1],
      'one fewer left per read',
    );
  });

  test('a signed write counts against "human-writes" per actor, down to r=0 and a 429 that says so', async () => {
    const client = createServiceClient({ baseUrl: t.baseUrl });
    const body = { actorId: `reader-${randomBytes(4).toString('hex')}`, verified: false, body: 'A fair summary.' };
    const budgets = [];
    for (let i = 0; i < 4; i++) {
      const res = await client.humanWrite<Json>(TEST_SECRET, `/v1/stories/${storyId}/comments`, body);
      budgets.push([res.status, rateLimitOf(res)]);
      if (res.status === 429) assert.ok(Number(res.headers.get('retry-after')) >= 1);
    }
    const reset = (budgets[0]![1] as { resetSeconds: number }).resetSeconds;
    assert.ok(reset >= 1 && reset <= 60, String(reset));
    assert.deepEqual(
      budgets.map(([status, info]) => [status, { ...(info as object), resetSeconds: 'n' }]),
      [202, 202, 202, 429].map((status, i) => [
        status,
        { policy: 'human-writes', remaining: Math.max(0, 2 - i), resetSeconds: 'n', quota: 3, windowSeconds: 60 },
      ]),
    );
    // another person has a budget of their own
    const other = await client.humanWrite<Json>(TEST_SECRET, `/v1/stories/${storyId}/comments`, { ...body, actorId: `${body.actorId}-b` });
    assert.equal(other.status, 202);
    assert.equal(rateLimitOf(other)?.remaining, 2);
    // a replayed idempotent answer tells the budget of the retry that got it
    const key = `retry-${randomBytes(6).toString('hex')}`;
    const who = { ...body, actorId: `${body.actorId}-c` };
    await client.humanWrite(TEST_SECRET, `/v1/stories/${storyId}/comments`, who, 'POST', { idempotencyKey: key });
    const replayed = await client.humanWrite(TEST_SECRET, `/v1/stories/${storyId}/comments`, who, 'POST', { idempotencyKey: key });
    assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
    assert.equal(rateLimitOf(replayed)?.remaining, 1);
  });

  test('a bot write counts against "agent-writes", a join against "joins"', async () => {
    const news = newsroomClient(t.baseUrl);
    const key = await news.joinBot();
    const join = await news.client.agentWrite(key, '/v1/agents/join', { publicKey: key.publicKey, name: 'again' });
    assert.equal(join.headers.get('ratelimit-policy'), '"joins";q=50;w=60');
    assert.equal(rateLimitOf(join)?.policy, 'joins');
    const submitted = await news.client.agentWrite(key, '/v1/candidates', { botId: key.botId, verified: false, ...news.packet() });
    assert.equal(submitted.status, 202);
    assert.equal(submitted.headers.get('ratelimit-policy'), '"agent-writes";q=30;w=60');
    assert.deepEqual(
      { ...rateLimitOf(submitted), resetSeconds: 0 },
      { policy: 'agent-writes', remaining: 29, resetSeconds: 0, quota: 30, windowSeconds: 60 },
    );
  });

  test('a route without a limit sends neither field', async () => {
    const res = await fetch(`${t.baseUrl}/healthz`);
    assert.equal(res.headers.get('ratelimit'), null);
    assert.equal(res.headers.get('ratelimit-policy'), null);
    assert.equal(rateLimitOf(res), undefined);
  });

  test('browsers may read them (CORS exposes them)', async () => {
    const cors = createTestApp({ API_ORIGIN: 'https://reader.example' });
    const app = await cors;
    try {
      const res = await app.app.inject({ method: 'GET', url: '/v1/feed', headers: { origin: 'https://reader.example' } });
      const exposed = String(res.headers['access-control-expose-headers']).split(/,\s*/);
      for (const name of ['ratelimit', 'ratelimit-policy', 'idempotent-replayed']) assert.ok(exposed.includes(name), exposed.join());
    } finally {
      await app.close();
    }
  });

  test('the document declares both on the answers of every limited operation and on its 429, and on no other', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as Json;
    const components = doc.components as Json;
    assert.match((components.headers as Json).RateLimit.schema.pattern as string, /r=/);
    assert.match((components.headers as Json)['RateLimit-Policy'].schema.pattern as string, /q=/);
    const resolve = (answer: Json): Json =>
      answer.$ref ? ((components.responses as Json)[(answer.$ref as string).split('/').pop()!] as Json) : answer;
    let limited = 0;
    for (const [path, operations] of Object.entries(doc.paths as Json))
      for (const [method, operation] of Object.entries(operations as Json)) {
        const op = operation as Json;
        // the operator's routes and the probes (a load balancer's health checks) are outside every budget
        const unlimited = /operationsToken/.test(JSON.stringify(op.security ?? [])) || ['/healthz', '/readyz'].includes(path);
        const success = Object.entries(op.responses as Json).find(([status]) => status.startsWith('2'));
        assert.ok(success, `${method} ${path} has a success answer`);
        const headers = Object.keys((resolve(success[1] as Json).headers as Json | undefined) ?? {});
        if (!unlimited) {
          limited += 1;
          assert.ok(headers.includes('RateLimit') && headers.includes('RateLimit-Policy'), `${method} ${path}: ${headers.join()}`);
          const tooMany = resolve((op.responses as Json)['429'] as Json);
          assert.ok(Object.keys(tooMany.headers as Json).includes('RateLimit'), `${method} ${path} 429`);
        } else assert.ok(!headers.includes('RateLimit'), `${method} ${path} is not limited`);
      }
    assert.ok(limited > 80, String(limited));
  });
});

describe('rateLimitOf, the SDK reading the fields', () => {
  const of = (fields: Record<string, string>, policy?: string) => rateLimitOf(new Headers(fields), policy);

  test('reads the budget and its policy; tolerates tokens, spaces, unknown parameters and other members', () => {
    assert.deepEqual(of({ RateLimit: '"reads";r=0;t=7', 'RateLimit-Policy': '"reads";q=600;w=60' }), {
      policy: 'reads',
      remaining: 0,
      resetSeconds: 7,
      quota: 600,
      windowSeconds: 60,
    });
    assert.deepEqual(
      of({ ratelimit: 'burst;r=3;t=1;pk=:YWJj:, "day";r=90;t=3600', 'ratelimit-policy': '"day";q=100;w=86400, burst;q=5;w=1' }, 'day'),
      {
        policy: 'day',
        remaining: 90,
        resetSeconds: 3600,
        quota: 100,
        windowSeconds: 86400,
      },
    );
    assert.deepEqual(of({ ratelimit: 'burst;r=3;t=1' }), { policy: 'burst', remaining: 3, resetSeconds: 1 });
  });

  test('answers undefined for no field, a field without r or t, or a malformed one', () => {
    for (const value of ['', '"reads";r=1', '"reads";t=1', 'r=1;t=2', '"reads;r=1;t=2', '(1 2);r=1;t=1'])
      assert.equal(of(value ? { ratelimit: value } : {}), undefined, value);
    assert.equal(of({ ratelimit: '"reads";r=1;t=1' }, 'writes'), undefined);
  });
});
