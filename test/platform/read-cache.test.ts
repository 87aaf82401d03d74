import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { manualClock } from '../../src/platform/clock.js';
import { createTestApp, createTestDatabase, testEnv, type TestApp, type TestDatabase } from '../helpers/app.js';
import { needsRedis } from '../helpers/needs.js';
import { testRedisPrefix } from '../helpers/redis.js';
import { newsroomClient } from '../helpers/newsroom.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function read(baseUrl: string, path: string) {
  const res = await fetch(`${baseUrl}${path}`);
  return { status: res.status, cache: res.headers.get('x-read-cache'), requestId: res.headers.get('x-request-id'), body: (await res.json()) as Json };
}

const titles = (body: Json) => (body.items as Json[]).map((i) => i.title as string);

describe('public read cache', () => {
  let t: TestApp;
  let baseUrl: string;
  let newsroom: ReturnType<typeof newsroomClient>;
  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000' });
    baseUrl = await t.listen();
    newsroom = newsroomClient(baseUrl);
    await newsroom.publishedStory({ title: 'Harbour ferry timetable expanded before the cache' });
  });
  after(() => t.close());

  test('a repeated read is served from the cache with the same body and its own request id', async () => {
    const first = await read(baseUrl, '/v1/feed?mode=recent&limit=5');
    const second = await read(baseUrl, '/v1/feed?mode=recent&limit=5');
    assert.equal(first.status, 200);
    assert.equal(first.cache, 'miss');
    assert.equal(second.cache, 'hit');
    assert.deepEqual(second.body, first.body);
    assert.notEqual(second.requestId, first.requestId);
    // another URL is another entry
    assert.equal((await read(baseUrl, '/v1/feed?mode=recent&limit=6')).cache, 'miss');
  });

  test('a write through the API is visible to the very next read (the write moves the read generation on)', async () => {
    const before = await read(baseUrl, '/v1/feed?mode=recent');
    assert.equal((await read(baseUrl, '/v1/feed?mode=recent')).cache, 'hit');
    const story = await newsroom.publishedStory({ title: 'Lighthouse restoration finished after the cache' });
    const afterWrite = await read(baseUrl, '/v1/feed?mode=recent');
    assert.equal(afterWrite.cache, 'miss');
    assert.ok(titles(afterWrite.body).includes('Lighthouse restoration finished after the cache'));
    assert.ok(!titles(before.body).includes('Lighthouse restoration finished after the cache'));

    const detail = await read(baseUrl, `/v1/stories/${story.storyId}`);
    assert.equal((await read(baseUrl, `/v1/stories/${story.storyId}`)).cache, 'hit');
    const reviewer = await newsroom.joinBot('reviewer');
    const attested = await newsroom.review(reviewer, 'attestations', story.storyId, detail.body.packetHash as string);
    assert.equal(attested.status, 202, JSON.stringify(attested.body));
    const reread = await read(baseUrl, `/v1/stories/${story.storyId}`);
    assert.equal(reread.cache, 'miss');
    assert.equal(reread.body.counts.attestations, (detail.body.counts.attestations as number) + 1);
  });

  test('a refused write (4xx) changes nothing and keeps the cache', async () => {
    await read(baseUrl, '/v1/feed?mode=trending');
    assert.equal((await read(baseUrl, '/v1/feed?mode=trending')).cache, 'hit');
    const refused = await fetch(`${baseUrl}/v1/candidates`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.ok(refused.status >= 400 && refused.status < 500);
    assert.equal((await read(baseUrl, '/v1/feed?mode=trending')).cache, 'hit');
  });

  test('only 200 bodies are kept: errors are answered afresh every time', async () => {
    for (let i = 0; i < 2; i += 1) {
      const missing = await read(baseUrl, '/v1/stories/st_does_not_exist');
      assert.equal(missing.status, 404);
      assert.equal(missing.cache, null);
      assert.equal(missing.body.code, 'NOT_FOUND');
    }
    for (let i = 0; i < 2; i += 1) assert.equal((await read(baseUrl, '/v1/feed?limit=0')).status, 400);
  });
});

describe('public read cache: expiry, limits and switches', () => {
  test('a body expires after READ_CACHE_TTL_MS', async () => {
    const clock = manualClock(Date.parse('2026-03-10T12:00:00.000Z'));
    const db = await createTestDatabase();
    const app = await buildApp(loadConfig(testEnv({ ...(db.url ? { DATABASE_URL: db.url } : {}), READ_CACHE_TTL_MS: '2000' })), { database: db.database, clock, logger: false, migrate: false });
    try {
      const get = async () => (await app.inject({ method: 'GET', url: '/v1/home' })).headers['x-read-cache'];
      assert.equal(await get(), 'miss');
      clock.advance(1_999);
      assert.equal(await get(), 'hit');
      clock.advance(1);
      assert.equal(await get(), 'miss');
    } finally {
      await app.close();
      await db.drop();
    }
  });

  test('a cached read still counts against the reader rate limit', async () => {
    const t = await createTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await t.app.inject({ method: 'GET', url: '/v1/feed' })).statusCode);
      assert.deepEqual(statuses, [200, 200, 200, 429]);
    } finally {
      await t.close();
    }
  });

  test('READ_CACHE_TTL_MS=0 turns the cache off', async () => {
    const t = await createTestApp({ READ_CACHE_TTL_MS: '0' });
    try {
      for (let i = 0; i < 2; i += 1) assert.equal((await t.app.inject({ method: 'GET', url: '/v1/feed' })).headers['x-read-cache'], undefined);
    } finally {
      await t.close();
    }
  });
});

describe('public read cache across instances', () => {
  const skip = needsRedis('two instances share the read generation through Redis');
  let shared: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    const prefix = testRedisPrefix();
    shared = await createTestDatabase();
    a = await createTestApp({ REDIS_KEY_PREFIX: prefix }, shared);
    b = await createTestApp({ REDIS_KEY_PREFIX: prefix }, shared);
    await a.listen();
    await b.listen();
  });
  after(async () => {
    await a.close();
    await b.close();
    await shared.drop();
  });

  test('a write on one instance is visible to the next read on the other, whose cache held the old body', { skip }, async () => {
    assert.equal((await read(b.baseUrl, '/v1/feed?mode=recent')).cache, 'miss');
    assert.equal((await read(b.baseUrl, '/v1/feed?mode=recent')).cache, 'hit');
    await newsroomClient(a.baseUrl).publishedStory({ title: 'Tidal barrier inspection completed on instance A' });
    const onB = await read(b.baseUrl, '/v1/feed?mode=recent');
    assert.equal(onB.cache, 'miss');
    assert.ok(titles(onB.body).includes('Tidal barrier inspection completed on instance A'));
  });
});
