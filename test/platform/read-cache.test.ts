import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { manualClock } from '../../src/platform/clock.js';
import { parseLsn } from '../../src/platform/db/read-replica.js';
import { createMemoryReadGeneration, entryLifeMs, readCachePlugin } from '../../src/platform/read-cache.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createReadsTestApp, type ReadsTestApp } from '../helpers/newsroom-factory.js';
import { newsroomClient } from '../helpers/newsroom.js';
import { monitorRedis } from '../helpers/redis-monitor.js';
import { until } from '../helpers/until.js';
import type { Json } from '../helpers/json.js';

async function read(baseUrl: string, path: string, method: 'GET' | 'HEAD' = 'GET') {
  const res = await fetch(`${baseUrl}${path}`, { method });
  const text = await res.text();
  return {
    status: res.status,
    cache: res.headers.get('x-read-cache'),
    requestId: res.headers.get('x-request-id'),
    body: (text ? JSON.parse(text) : null) as Json,
  };
}

const titles = (body: Json) => (body.items as Json[]).map((i) => i.title as string);
const cardOf = (body: Json, storyId: string) => (body.items as Json[]).find((i) => i.id === storyId);

/** Every public read that may be cached, as a URL without query (story reads on `storyId`). */
const publicReads = (storyId: string) => [
  '/v1/feed',
  '/v1/search',
  '/v1/ledger/events',
  '/v1/home',
  '/v1/modules/developing',
  '/v1/modules/under-review',
  '/v1/modules/ledger',
  '/v1/modules/reward-window',
  '/v1/assistant/orientation',
  '/v1/rankings/bots',
  `/v1/stories/${storyId}`,
  `/v1/article/${storyId}`,
  `/v1/cluster/${storyId}`,
  `/v1/stories/${storyId}/versions`,
  `/v1/stories/${storyId}/sources`,
  `/v1/stories/${storyId}/comments`,
  `/v1/stories/${storyId}/flags`,
  `/v1/stories/${storyId}/consensus`,
  `/v1/stories/${storyId}/machine-room`,
  `/v1/stories/${storyId}/assistant-orientation`,
];

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

  test('the key is the validated query: reordered parameters, defaults and equal numbers share one entry', async () => {
    assert.equal((await read(baseUrl, '/v1/search?room=world&lang=en&limit=7')).cache, 'miss');
    assert.equal((await read(baseUrl, '/v1/search?limit=7&room=world&lang=en')).cache, 'hit');
    assert.equal((await read(baseUrl, '/v1/search?lang=en&limit=07&room=world')).cache, 'hit');
    assert.equal((await read(baseUrl, '/v1/search?limit=7&room=world')).cache, 'hit', 'lang=en is the default');
    assert.equal((await read(baseUrl, '/v1/search?limit=7&room=world&lang=fr')).cache, 'miss', 'another value is another entry');
  });

  test('unknown query parameters are refused with 400 VALIDATION_FAILED on every public read, and never cached', async () => {
    const story = await newsroom.publishedStory({ title: 'Unknown parameters are refused on every read' });
    for (const path of publicReads(story.storyId)) {
      assert.equal((await read(baseUrl, path)).status, 200, path);
      for (let i = 0; i < 2; i += 1) {
        const refused = await read(baseUrl, `${path}?foo=bar`);
        assert.equal(refused.status, 400, `${path}?foo=bar`);
        assert.equal(refused.body.code, 'VALIDATION_FAILED', `${path}?foo=bar`);
        assert.equal(refused.cache, null);
      }
    }
    // an unknown parameter next to known ones, and one that differs from a known one by case
    assert.equal((await read(baseUrl, '/v1/feed?mode=recent&limit=5&utm_source=x')).status, 400);
    assert.equal((await read(baseUrl, '/v1/feed?Mode=recent')).status, 400);
  });

  test('HEAD is answered from the read cache, like GET', async () => {
    const head = await read(baseUrl, '/v1/search?q=ferry', 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body, null);
    assert.equal(head.cache, 'miss');
    assert.equal((await read(baseUrl, '/v1/search?q=ferry', 'HEAD')).cache, 'hit');
    const get = await read(baseUrl, '/v1/search?q=ferry');
    assert.equal(get.cache, 'hit', 'HEAD and GET share the entry');
    assert.ok(get.body.items.length >= 1);
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

  test("a write on story A invalidates A's reads and every list read, and keeps story B's reads", async () => {
    const a = await newsroom.publishedStory({ title: 'Story A: river crossing reopens' });
    const b = await newsroom.publishedStory({ title: 'Story B: library hours extended' });
    const urls = {
      aDetail: `/v1/stories/${a.storyId}`,
      aComments: `/v1/stories/${a.storyId}/comments`,
      bDetail: `/v1/stories/${b.storyId}`,
      bComments: `/v1/stories/${b.storyId}/comments`,
      bOrientation: `/v1/stories/${b.storyId}/assistant-orientation`,
      feed: '/v1/feed?mode=recent',
      home: '/v1/home',
    };
    for (const url of Object.values(urls)) {
      await read(baseUrl, url);
      assert.equal((await read(baseUrl, url)).cache, 'hit', url);
    }
    const aBefore = await read(baseUrl, urls.aDetail);
    const reviewer = await newsroom.joinBot('reviewer-a');
    const attested = await newsroom.review(reviewer, 'attestations', a.storyId, aBefore.body.packetHash as string);
    assert.equal(attested.status, 202, JSON.stringify(attested.body));

    const aAfter = await read(baseUrl, urls.aDetail);
    assert.equal(aAfter.cache, 'miss');
    assert.equal(aAfter.body.counts.attestations, (aBefore.body.counts.attestations as number) + 1);
    assert.equal((await read(baseUrl, urls.aComments)).cache, 'miss');
    const feed = await read(baseUrl, urls.feed);
    assert.equal(feed.cache, 'miss');
    assert.equal(cardOf(feed.body, a.storyId)?.counts.attestations, aAfter.body.counts.attestations);
    assert.equal((await read(baseUrl, urls.home)).cache, 'miss');
    for (const url of [urls.bDetail, urls.bComments, urls.bOrientation]) assert.equal((await read(baseUrl, url)).cache, 'hit', url);
  });

  test('a write outside withTransaction moves the lists through the safety net of write routes', async () => {
    // A candidate is created outside withTransaction today, and search lists it with publicationStage=CANDIDATE.
    const author = await newsroom.joinBot('author-net');
    const url = '/v1/search?publicationStage=CANDIDATE';
    await read(baseUrl, url);
    assert.equal((await read(baseUrl, url)).cache, 'hit');
    const netBefore = t.app.readCacheStats.safetyNetBumps;
    const candidate = await newsroom.submit(author, { title: 'Candidate listed at once by search' });
    assert.equal(t.app.readCacheStats.safetyNetBumps, netBefore + 1);
    const listed = await read(baseUrl, url);
    assert.equal(listed.cache, 'miss');
    assert.ok((listed.body.items as Json[]).some((i) => i.id === candidate.storyId));
  });

  test('a write route declaring changesPublicReads: false (a bot joining) moves nothing and keeps the cache', async () => {
    // rankings list bots by their activity: a bot that only joined is in no public read
    for (const url of ['/v1/feed?mode=trending', '/v1/rankings/bots']) {
      await read(baseUrl, url);
      assert.equal((await read(baseUrl, url)).cache, 'hit', url);
    }
    const netBefore = t.app.readCacheStats.safetyNetBumps;
    await newsroom.joinBot('joins-quietly');
    assert.equal(t.app.readCacheStats.safetyNetBumps, netBefore);
    const rankings = await read(baseUrl, '/v1/rankings/bots');
    assert.equal(rankings.cache, 'hit');
    assert.equal((await read(baseUrl, '/v1/feed?mode=trending')).cache, 'hit');
    // a write that moves the lists makes the next rankings read fresh: the joined bot is not in it either
    const joined = await newsroom.joinBot('joins-quietly-2');
    await newsroom.submit(await newsroom.joinBot('moves-the-lists'), { title: 'A candidate that moves the list reads' });
    const fresh = await read(baseUrl, '/v1/rankings/bots');
    assert.equal(fresh.cache, 'miss');
    assert.ok(!(fresh.body.items as Json[]).some((i) => i.botId === joined.botId));
    assert.deepEqual(fresh.body.items, rankings.body.items);
  });

  test('a refused write (4xx) changes nothing and keeps the cache', async () => {
    await read(baseUrl, '/v1/feed?mode=trending');
    assert.equal((await read(baseUrl, '/v1/feed?mode=trending')).cache, 'hit');
    const refused = await fetch(`${baseUrl}/v1/candidates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
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

describe('public read cache: coalescing', () => {
  const N = 12;
  let calls = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  /** A cached route whose handler counts its calls and holds its answer until the test releases it. */
  const slowRoute = async (app: FastifyInstance) => {
    app.get(
      '/test/slow-read',
      {
        config: { auth: { kind: 'public' }, readCache: true },
        schema: { querystring: Type.Object({ n: Type.Optional(Type.Integer()) }, { additionalProperties: false }) },
      },
      async () => {
        calls += 1;
        await gate;
        return { answer: 42, calls };
      },
    );
  };

  test('N concurrent misses of one URL run the handler once; the others get its body', async () => {
    const t = await createTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000' }, undefined, [slowRoute]);
    try {
      const stats = t.app.readCacheStats;
      const before = { ...stats };
      const methods = Array.from({ length: N }, (_, i) => (i % 3 === 2 ? 'HEAD' : 'GET') as 'GET' | 'HEAD');
      const responses = methods.map((method, i) => t.app.inject({ method, url: i % 2 ? '/test/slow-read?n=1' : '/test/slow-read?n=01' }));
      // Wait (no timer) until every other request waits for the first one, or until the handler ran more than once.
      while (stats.waiting < N - 1 && calls < N) await new Promise((resolve) => setImmediate(resolve));
      release();
      const answered = await Promise.all(responses);
      assert.equal(calls, 1, 'the handler ran once');
      assert.deepEqual(
        answered.map((r) => r.statusCode),
        Array.from({ length: N }, () => 200),
      );
      for (const r of answered.filter((_, i) => methods[i] === 'GET')) assert.deepEqual(r.json(), { answer: 42, calls: 1 });
      for (const r of answered.filter((_, i) => methods[i] === 'HEAD')) assert.equal(r.body, '');
      assert.equal(answered.filter((r) => r.headers['x-read-cache'] === 'coalesced').length, N - 1);
      assert.equal(stats.misses - before.misses, 1);
      assert.equal(stats.coalesced - before.coalesced, N - 1);
      assert.equal(stats.waiting, 0);
      assert.equal((await t.app.inject({ method: 'GET', url: '/test/slow-read?n=1' })).headers['x-read-cache'], 'hit');
      assert.equal(calls, 1);
    } finally {
      release();
      await t.close();
    }
  });

  test('a read cache route must refuse unknown query parameters and name a story parameter it has', async () => {
    const app = Fastify({ logger: false });
    await app.register(readCachePlugin, {
      generation: createMemoryReadGeneration(manualClock()),
      clock: manualClock(),
      ttlMs: 1000,
      maxBytes: 1_000_000,
    });
    try {
      assert.throws(
        () => app.get('/test/loose', { config: { readCache: true } }, async () => ({ ok: true })),
        /additionalProperties: false/,
      );
      const strict = Type.Object({}, { additionalProperties: false });
      assert.throws(
        () =>
          app.get('/test/:id', { config: { readCache: { story: 'storyId' } }, schema: { querystring: strict } }, async () => ({
            ok: true,
          })),
        /not a parameter/,
      );
      app.get('/test/:storyId', { config: { readCache: { story: 'storyId' } }, schema: { querystring: strict } }, async () => ({
        ok: true,
      }));
    } finally {
      await app.close();
    }
  });
});

describe('public read cache: HEAD and the read rate limit', () => {
  test('HEAD counts against the public read rate limit like GET, and is refused once it is reached', async () => {
    const t = await createTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      for (const method of ['GET', 'HEAD', 'GET', 'HEAD', 'GET'] as const)
        statuses.push((await t.app.inject({ method, url: '/v1/search?q=harbour' })).statusCode);
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    } finally {
      await t.close();
    }
  });
});

/** An app on a fresh database whose clock the test moves, with READ_CACHE_TTL_MS = `ttlMs`. */
async function withClockedApp(ttlMs: number, use: (app: FastifyInstance, clock: ReadsTestApp['clock']) => Promise<void>) {
  const t = await createReadsTestApp({ READ_CACHE_TTL_MS: String(ttlMs) });
  try {
    await use(t.app, t.clock);
  } finally {
    await t.close();
  }
}

/**
 * Reads `urls` (all misses) at one instant, then checks that each body is served for four fifths of `lifeMs`, that
 * at nine tenths of it some are served and some not, and that those still served then are not served at `lifeMs`.
 */
async function checkSpreadExpiry(app: FastifyInstance, clock: ReadsTestApp['clock'], urls: string[], lifeMs: number) {
  const state = async (url: string) => (await app.inject({ method: 'GET', url })).headers['x-read-cache'];
  const states = async () => Promise.all(urls.map(state));
  assert.deepEqual(new Set(await states()), new Set(['miss']));
  clock.advance(lifeMs * 0.8 - 1);
  assert.deepEqual(new Set(await states()), new Set(['hit']), 'every body lives at least four fifths of its bound');
  // some keys' lives have ended and others' have not (a miss stores the body anew)
  clock.advance(lifeMs * 0.1 + 1);
  const later = await states();
  const served = urls.filter((_, i) => later[i] === 'hit');
  assert.ok(served.length > 0 && served.length < urls.length, `hits at nine tenths: ${served.length} of ${urls.length}`);
  // at the bound, the bodies still served at nine tenths are past it
  clock.advance(lifeMs * 0.1);
  for (const url of served) assert.equal(await state(url), 'miss', url);
}

describe('public read cache: expiry, limits and switches', () => {
  test('a body is served for at least four fifths of READ_CACHE_TTL_MS and never past it', async () => {
    await withClockedApp(2000, async (app, clock) => {
      const get = async () => (await app.inject({ method: 'GET', url: '/v1/home' })).headers['x-read-cache'];
      assert.equal(await get(), 'miss');
      clock.advance(1_599);
      assert.equal(await get(), 'hit');
      clock.advance(401);
      assert.equal(await get(), 'miss');
    });
  });

  test('a key life is fixed by the key, between four fifths of the time to live and all of it', () => {
    const lives = Array.from({ length: 1000 }, (_, i) => entryLifeMs(`/v1/stories/st_${i}`, 30_000));
    // pinned: the same key lives as long on every instance and after every restart
    assert.equal(entryLifeMs('/v1/home', 2_000), 1_664);
    assert.ok(lives.every((life) => life > 24_000 && life <= 30_000));
    // spread over the whole fifth: each of its six seconds holds some of the thousand keys
    const seconds = new Set(lives.map((life) => Math.floor((life - 24_001) / 1_000)));
    assert.deepEqual([...seconds].sort(), [0, 1, 2, 3, 4, 5]);
  });

  test('bodies stored in one instant expire at different times, each within its key life', async () => {
    await withClockedApp(10000, async (app, clock) => {
      // 30 keys of one route (limit 1..30 validates to 30 different queries), all stored at the same instant
      const urls = Array.from({ length: 30 }, (_, i) => `/v1/feed?limit=${i + 1}`);
      await checkSpreadExpiry(app, clock, urls, 10_000);
    });
  });

  test('a body read from the replica lives at most DATABASE_READ_MAX_LAG_MS, spread within it', async () => {
    const clock = manualClock(Date.parse('2026-03-10T12:00:00.000Z'));
    const app = Fastify({ logger: false });
    await app.register(readCachePlugin, {
      generation: createMemoryReadGeneration(clock),
      clock,
      ttlMs: 30_000,
      maxBytes: 1_000_000,
      replicaMaxLagMs: 5_000,
    });
    const strict = Type.Object({ n: Type.Integer() }, { additionalProperties: false });
    app.get('/test/replica-read', { config: { readCache: true }, schema: { querystring: strict } }, async (request) => {
      request.readFrom = 'replica';
      return { n: (request.query as { n: number }).n };
    });
    try {
      const urls = Array.from({ length: 30 }, (_, i) => `/test/replica-read?n=${i}`);
      await checkSpreadExpiry(app, clock, urls, 5_000);
    } finally {
      await app.close();
    }
  });

  test('a read carrying a WAL position takes a body read on the replica only once it had replayed that position, and any body read on the primary', async () => {
    const clock = manualClock(Date.parse('2026-03-10T12:00:00.000Z'));
    const app = Fastify({ logger: false });
    await app.register(readCachePlugin, {
      generation: createMemoryReadGeneration(clock),
      clock,
      ttlMs: 30_000,
      maxBytes: 1_000_000,
      replicaMaxLagMs: 5_000,
      readAfter: async (request) => parseLsn(request.headers['x-read-after'] as string | undefined),
    });
    // where each read runs is the test's to say: on the replica, having replayed up to 0/A (10), or on the primary
    let calls = 0;
    let gate: Promise<void> = Promise.resolve();
    const strict = Type.Object({ n: Type.Integer() }, { additionalProperties: false });
    app.get('/test/replicated', { config: { readCache: true }, schema: { querystring: strict } }, async (request) => {
      calls += 1;
      const on = request.headers['x-test-on'] === 'primary' ? 'primary' : 'replica';
      request.readFrom = on;
      if (on === 'replica') request.readReplayed = 10n;
      await gate;
      return { on, calls };
    });
    const read = async (n: number, headers: Record<string, string> = {}) => {
      const res = await app.inject({ method: 'GET', url: `/test/replicated?n=${n}`, headers });
      return `${res.headers['x-read-cache']} ${(res.json() as { on: string }).on}`;
    };
    try {
      assert.equal(await read(1), 'miss replica');
      assert.equal(await read(1, { 'x-read-after': '0/A' }), 'hit replica', 'the replica had replayed 0/A');
      // as the router would: a read needing 0/B goes to the primary while the replica has replayed only 0/A
      assert.equal(await read(1, { 'x-read-after': '0/B', 'x-test-on': 'primary' }), 'miss primary', 'the body may lack 0/B');
      assert.equal(await read(1, { 'x-read-after': 'FF/0' }), 'hit primary', "the primary's body stands for every position");
      assert.equal(await read(1), 'hit primary', 'and is kept for every reader');

      // a read waiting for another's body takes it on the same terms
      let release!: () => void;
      gate = new Promise((resolve) => {
        release = resolve;
      });
      const leader = read(2);
      while (calls < 3) await new Promise((resolve) => setImmediate(resolve));
      const older = read(2, { 'x-read-after': '0/5' });
      const newer = read(2, { 'x-read-after': '0/14', 'x-test-on': 'primary' });
      while (app.readCacheStats.waiting < 2) await new Promise((resolve) => setImmediate(resolve));
      release();
      assert.deepEqual(await Promise.all([leader, older, newer]), ['miss replica', 'coalesced replica', 'miss primary']);
    } finally {
      await app.close();
    }
  });

  test('a body keeps the ETag a hook of its route gave it when it was read, and is served with it', async () => {
    const clock = manualClock(Date.parse('2026-03-10T12:00:00.000Z'));
    const app = Fastify({ logger: false });
    await app.register(readCachePlugin, { generation: createMemoryReadGeneration(clock), clock, ttlMs: 30_000, maxBytes: 1_000_000 });
    // like the reader site's ETag hook: it validates a body by hashing it, unless the body comes with its ETag
    let hashed = 0;
    app.addHook('onSend', async (_request, reply, payload) => {
      if (reply.getHeader('etag') === undefined) reply.header('etag', `W/"body-${(hashed += 1)}"`);
      return payload;
    });
    const strict = Type.Object({}, { additionalProperties: false });
    app.get('/test/page', { config: { readCache: true }, schema: { querystring: strict } }, async () => ({ page: 1 }));
    try {
      const miss = await app.inject({ method: 'GET', url: '/test/page' });
      const hit = await app.inject({ method: 'GET', url: '/test/page' });
      assert.deepEqual([miss.headers['x-read-cache'], hit.headers['x-read-cache']], ['miss', 'hit']);
      assert.equal(miss.headers.etag, 'W/"body-1"');
      assert.equal(hit.headers.etag, 'W/"body-1"', 'the hit carries the ETag stored with its body');
      assert.equal(hashed, 1, 'the hook did not validate the cached body again');
    } finally {
      await app.close();
    }
  });

  test('a body is kept as its UTF-8 bytes: a hit sends the same bytes, and the memory bound counts bytes', async () => {
    const clock = manualClock(Date.parse('2026-03-10T12:00:00.000Z'));
    const app = Fastify({ logger: false });
    // room for one body of 600 bytes, not for two: each is 300 characters but 600 bytes ('é' is two bytes)
    await app.register(readCachePlugin, { generation: createMemoryReadGeneration(clock), clock, ttlMs: 30_000, maxBytes: 1_000 });
    const strict = Type.Object({}, { additionalProperties: false });
    app.get('/test/:name', { config: { readCache: true }, schema: { querystring: strict } }, async (request) => {
      const { name } = request.params as { name: string };
      return `${name}:${'é'.repeat(298 - name.length)}`;
    });
    try {
      const miss = await app.inject({ method: 'GET', url: '/test/a' });
      const hit = await app.inject({ method: 'GET', url: '/test/a' });
      assert.deepEqual([miss.headers['x-read-cache'], hit.headers['x-read-cache']], ['miss', 'hit']);
      assert.ok(hit.rawPayload.equals(miss.rawPayload), 'the hit sends the bytes the miss sent');
      assert.equal(hit.body, `a:${'é'.repeat(297)}`);
      assert.equal(hit.headers['content-length'], String(Buffer.byteLength(miss.body)));
      assert.equal(hit.headers['content-type'], miss.headers['content-type']);
      // a second body of 600 bytes pushes the first out (counted in characters, both would fit)
      assert.equal((await app.inject({ method: 'GET', url: '/test/b' })).headers['x-read-cache'], 'miss');
      assert.equal((await app.inject({ method: 'GET', url: '/test/b' })).headers['x-read-cache'], 'hit');
      assert.equal((await app.inject({ method: 'GET', url: '/test/a' })).headers['x-read-cache'], 'miss');
    } finally {
      await app.close();
    }
  });

  test('a life spread outside [0, 1), and a life as long as a read generation key, are refused', async () => {
    const refused = [
      ...[-0.1, 1, Number.NaN].map((lifeSpread) => ({ options: { lifeSpread }, message: /lifeSpread/ })),
      { options: { ttlMs: 3_600_000 }, message: /READ_CACHE_TTL_MS must be below/ },
      { options: { clockKnownTtlMs: 3_600_000 }, message: /READ_CACHE_STORY_TTL_MS must be below/ },
    ];
    for (const { options, message } of refused) {
      const app = Fastify({ logger: false });
      await assert.rejects(
        async () =>
          app.register(readCachePlugin, {
            generation: createMemoryReadGeneration(manualClock()),
            clock: manualClock(),
            ttlMs: 1000,
            maxBytes: 1_000_000,
            ...options,
          }),
        message,
      );
      await app.close().catch(() => undefined);
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
      for (let i = 0; i < 2; i += 1)
        assert.equal((await t.app.inject({ method: 'GET', url: '/v1/feed' })).headers['x-read-cache'], undefined);
    } finally {
      await t.close();
    }
  });
});

// Across instances (a write on one invalidates the other's cached reads; expired or flushed generation keys;
// every key expires): test/platform/redis-topologies.test.ts, on each Redis deployment.

describe('a cached read asks for its read generation without waiting for the rate limit', () => {
  test("the generation read reaches Redis before the read's count, in each request", async (ctx) => {
    const redisUrl = process.env.TEST_REDIS_URL;
    if (!redisUrl) {
      ctx.skip('needs TEST_REDIS_URL: the order is the one Redis executes the commands in (MONITOR)');
      return;
    }
    const t = await createTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000' });
    const redis = new Redis(redisUrl);
    let monitor: { close(): void } | undefined;
    try {
      const prefix = t.config.redisKeyPrefix;
      const seen: string[] = [];
      // MONITOR tells commands in the order Redis runs them, and may tell the setup's commands after this point:
      // only what follows a marker sent after the setup is recorded.
      const marker = `${prefix}monitor-start`;
      let recording = false;
      monitor = await monitorRedis(redisUrl, ([command, ...keys]) => {
        if (command === 'get' && keys[0] === marker) recording = true;
        else if (!recording || !keys.some((k) => k.startsWith(prefix))) return;
        else if (command === 'mget') seen.push('mget');
        // the count is a script: EVALSHA, or EVAL with its body the first time this connection runs it
        else if (command === 'eval' || command === 'evalsha') seen.push('script');
      });
      const baseUrl = await t.listen();
      const { storyId } = await newsroomClient(baseUrl).publishedStory({ title: 'Tram line reopens after the repairs' });
      await redis.get(marker);
      await until(async () => recording, 2_000, 'MONITOR to tell of the marker', 20);
      assert.ok(recording, 'MONITOR told of the marker');
      const reads = ['miss', 'hit', 'hit'];
      for (const expected of reads) assert.equal((await read(baseUrl, `/v1/stories/${storyId}`)).cache, expected);
      // MONITOR reports asynchronously: wait until it has told of every command of the three reads
      await until(async () => seen.length >= reads.length * 2, 2_000, 'MONITOR to tell of the three reads', 20);
      assert.deepEqual(
        seen,
        reads.flatMap(() => ['mget', 'script']),
        'the generation read (mget) first, then the count (a script)',
      );
    } finally {
      monitor?.close();
      redis.disconnect();
      await t.close();
    }
  });
});
