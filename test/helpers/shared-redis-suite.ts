import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createServiceClient, generateAgentKey, signAgentRequest } from '../../sdk/index.js';
import { READ_GENERATION_KEYS } from '../../src/platform/read-generation.js';
import type { RedisClient } from '../../src/platform/redis.js';
import { joinBot, post } from '../agents/support.js';
import { echoRoute } from './echo-route.js';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from './app.js';
import type { Json } from './json.js';
import { newsroomClient } from './newsroom.js';
import type { RedisTopology } from './redis-topologies.js';
import { testRedisPrefix } from './redis.js';

async function read(baseUrl: string, path: string) {
  const res = await fetch(`${baseUrl}${path}`);
  const text = await res.text();
  return { status: res.status, cache: res.headers.get('x-read-cache'), body: (text ? JSON.parse(text) : null) as Json };
}

const titles = (body: Json) => (body.items as Json[]).map((i) => i.title as string);
const cardOf = (body: Json, storyId: string) => (body.items as Json[]).find((i) => i.id === storyId);

/**
 * What two instances of the service share through Redis, asserted on one Redis deployment: nonces (a replay is
 * refused by the other instance), rate limits (one window counts both instances' requests), the read
 * generations (a write on one instance invalidates the other's cached reads, and every key expires), and an
 * idempotency key (its record is in the database; both requests go through the Redis nonce and limit checks).
 * Called inside a describe, once per deployment (test/platform/redis-topologies.test.ts); `topology` is read
 * when the tests start. With a topology that can fail over (Sentinel), the last test fails over and checks
 * that the service keeps its nonces and keeps serving.
 */
export function sharedRedisSuite(topology: () => RedisTopology, skip: string | false, options: { failover?: boolean } = {}): void {
  let shared: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let redis: RedisClient;
  const prefix = testRedisPrefix();
  before(async () => {
    if (skip) return;
    shared = await createTestDatabase();
    const env = { ...topology().env(prefix), RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000' };
    a = await createTestApp(env, shared, [echoRoute]);
    b = await createTestApp(env, shared, [echoRoute]);
    await a.listen();
    await b.listen();
    redis = topology().client(prefix);
  });
  after(async () => {
    if (skip) return;
    redis?.disconnect();
    await a?.close();
    await b?.close();
    await shared?.drop();
  });

  test('a nonce used on instance A is 409 REPLAY_DETECTED on instance B', { skip }, async () => {
    const key = generateAgentKey();
    assert.equal((await joinBot(a.app, key)).status, 202);
    const body = { botId: key.botId, verified: false };
    const headers = signAgentRequest({ key, method: 'POST', path: '/v1/test/echo', body });
    assert.equal((await post(a.app, '/v1/test/echo', body, headers)).status, 202);
    const replay = await post(b.app, '/v1/test/echo', body, headers);
    assert.equal(replay.status, 409);
    assert.equal(replay.body.code, 'REPLAY_DETECTED');
  });

  test('the join limit is shared by every instance', { skip }, async () => {
    const env = { ...topology().env(testRedisPrefix()), RATE_LIMIT_AGENT_JOINS_PER_MINUTE: '4' };
    const [first, second] = [await createTestApp(env, shared), await createTestApp(env, shared)];
    try {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await joinBot(i % 2 ? second.app : first.app, generateAgentKey())).status);
      assert.deepEqual(statuses, [202, 202, 202, 202, 429, 429]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  test('an idempotency key used on instance A answers the first answer on instance B', { skip }, async () => {
    const news = newsroomClient(a.baseUrl);
    const bot = await news.joinBot();
    const body = { botId: bot.botId, verified: false, ...news.packet() };
    const key = `idem-${randomBytes(6).toString('hex')}`;
    const first = await createServiceClient({ baseUrl: a.baseUrl }).agentWrite<Json>(bot, '/v1/candidates', body, { idempotencyKey: key });
    assert.equal(first.status, 202, JSON.stringify(first.body));
    // signed again (a fresh nonce): only the idempotency key says it is the same request
    const again = await createServiceClient({ baseUrl: b.baseUrl }).agentWrite<Json>(bot, '/v1/candidates', body, { idempotencyKey: key });
    assert.equal(again.status, 202);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
  });

  test('a write on one instance is visible to the next read on the other, whose cache held the old body', { skip }, async () => {
    assert.equal((await read(b.baseUrl, '/v1/feed?mode=recent')).cache, 'miss');
    assert.equal((await read(b.baseUrl, '/v1/feed?mode=recent')).cache, 'hit');
    await newsroomClient(a.baseUrl).publishedStory({ title: 'Tidal barrier inspection completed on instance A' });
    const onB = await read(b.baseUrl, '/v1/feed?mode=recent');
    assert.equal(onB.cache, 'miss');
    assert.ok(titles(onB.body).includes('Tidal barrier inspection completed on instance A'));
  });

  test(
    "a write on story A shows at once on A's detail, the feed and the ledger of both instances; B's detail stays cached",
    { skip },
    async () => {
      const newsroom = newsroomClient(a.baseUrl);
      const storyA = await newsroom.publishedStory({ title: 'Story A: dam spillway opened' });
      const storyB = await newsroom.publishedStory({ title: 'Story B: market square repaved' });
      const packetHash = (await read(a.baseUrl, `/v1/stories/${storyA.storyId}`)).body.packetHash as string;
      // One objection first: the second one makes A CONTESTED, with a CHALLENGE on the ledger.
      const [first, second] = [await newsroom.joinBot('objector-1'), await newsroom.joinBot('objector-2')];
      assert.equal((await newsroom.review(first, 'objections', storyA.storyId, packetHash)).status, 202);

      const urls = [`/v1/stories/${storyA.storyId}`, `/v1/stories/${storyB.storyId}`, '/v1/feed?mode=recent', '/v1/ledger/events'];
      for (const instance of [a, b]) {
        for (const url of urls) {
          await read(instance.baseUrl, url);
          assert.equal((await read(instance.baseUrl, url)).cache, 'hit', url);
        }
      }
      assert.equal((await newsroom.review(second, 'objections', storyA.storyId, packetHash)).status, 202);

      for (const instance of [a, b]) {
        const detail = await read(instance.baseUrl, urls[0]!);
        assert.equal(detail.cache, 'miss');
        assert.equal(detail.body.state, 'CONTESTED');
        const feed = await read(instance.baseUrl, urls[2]!);
        assert.equal(feed.cache, 'miss');
        assert.equal(cardOf(feed.body, storyA.storyId)?.state, 'CONTESTED');
        const ledger = await read(instance.baseUrl, urls[3]!);
        assert.equal(ledger.cache, 'miss');
        assert.ok((ledger.body.events as Json[]).some((e) => e.storyId === storyA.storyId && e.type === 'CHALLENGE'));
        assert.equal((await read(instance.baseUrl, urls[1]!)).cache, 'hit', "B's detail");
      }
    },
  );

  test('expired or flushed generation keys never let a stale body be served', { skip }, async () => {
    const newsroom = newsroomClient(a.baseUrl);
    const story = await newsroom.publishedStory({ title: 'Generation keys expire safely' });
    const url = `/v1/stories/${story.storyId}`;
    const hash = (await read(b.baseUrl, url)).body.packetHash as string;
    assert.equal((await read(b.baseUrl, url)).cache, 'hit');

    // The story's key expires (deleted here): the stamp no longer matches.
    assert.equal(await redis.del(READ_GENERATION_KEYS.story(story.storyId)), 1);
    assert.equal((await read(b.baseUrl, url)).cache, 'miss');
    assert.equal((await read(b.baseUrl, url)).cache, 'hit');
    // A write creates the key again with a value it never had: the body stamped before is not served.
    assert.equal((await newsroom.review(await newsroom.joinBot('after-expiry'), 'attestations', story.storyId, hash)).status, 202);
    const fresh = await read(b.baseUrl, url);
    assert.equal(fresh.cache, 'miss');
    assert.equal(fresh.body.counts.attestations, 1);

    // Every generation key gone (a flushed Redis): nothing cached before is served. (One DEL of three keys:
    // on a cluster it works because they share a hash slot.)
    await read(b.baseUrl, '/v1/feed?mode=recent');
    assert.equal((await read(b.baseUrl, '/v1/feed?mode=recent')).cache, 'hit');
    assert.equal((await read(b.baseUrl, url)).cache, 'hit');
    assert.equal(await redis.del(READ_GENERATION_KEYS.epoch, READ_GENERATION_KEYS.list, READ_GENERATION_KEYS.story(story.storyId)), 3);
    assert.equal((await read(b.baseUrl, url)).cache, 'miss', 'the read that finds no epoch creates a new one');
    assert.equal((await read(b.baseUrl, url)).cache, 'hit');
    assert.equal((await read(b.baseUrl, '/v1/feed?mode=recent')).cache, 'miss');
  });

  test('every key the service writes in Redis expires', { skip }, async () => {
    const keys = await topology().keys(prefix);
    assert.ok(keys.includes(`${prefix}${READ_GENERATION_KEYS.epoch}`), 'the read generation keys are among them');
    assert.ok(keys.some((k) => k.startsWith(`${prefix}${READ_GENERATION_KEYS.story('')}`)));
    assert.ok(keys.some((k) => k.startsWith(`${prefix}nonce:`)) && keys.some((k) => k.startsWith(`${prefix}rl:`)), 'nonces and limits too');
    const plain = topology().client();
    try {
      const withoutTtl: string[] = [];
      for (const key of keys) if ((await plain.pttl(key)) <= 0) withoutTtl.push(key);
      assert.deepEqual(withoutTtl, []);
    } finally {
      plain.disconnect();
    }
  });

  if (options.failover)
    test('after a failover to the replica, nonces are still refused and writes and cached reads carry on', { skip }, async () => {
      const newsroom = newsroomClient(a.baseUrl);
      const key = await newsroom.joinBot('before-failover');
      const body = { botId: key.botId, verified: false };
      const headers = signAgentRequest({ key, method: 'POST', path: '/v1/test/echo', body });
      assert.equal((await post(a.app, '/v1/test/echo', body, headers)).status, 202);
      const story = await newsroom.publishedStory({ title: 'Failover drill at the harbour' });
      const url = `/v1/stories/${story.storyId}`;
      const hash = (await read(b.baseUrl, url)).body.packetHash as string;

      const failedOverAt = Date.now();
      await topology().failover!();
      // While the clients move to the new master, requests may answer 503 REDIS_UNAVAILABLE (never queued) and
      // reads go uncached: within a few seconds, a whole round must pass on both instances.
      let lastProblem: string;
      const round = async (): Promise<string | null> => {
        for (const instance of [a, b]) {
          const fresh = { botId: key.botId, verified: false, n: randomBytes(4).toString('hex') };
          const res = await post(
            instance.app,
            '/v1/test/echo',
            fresh,
            signAgentRequest({ key, method: 'POST', path: '/v1/test/echo', body: fresh }),
          );
          if (res.status !== 202) return `a signed write answered ${res.status} ${res.body.code}`;
          // the nonce claimed on the old master was replicated: the replay is still refused
          const replay = await post(instance.app, '/v1/test/echo', body, headers);
          if (replay.status !== 409 || replay.body.code !== 'REPLAY_DETECTED')
            return `the replay answered ${replay.status} ${replay.body.code}`;
        }
        // the read generations work on the new master: B caches the detail, a write on A invalidates it
        await read(b.baseUrl, url);
        const cached = await read(b.baseUrl, url);
        if (cached.cache !== 'hit') return `B's detail was not cached (${cached.cache})`;
        const reviewed = await newsroom.review(await newsroom.joinBot(), 'attestations', story.storyId, hash);
        if (reviewed.status !== 202) return `the attestation answered ${reviewed.status}`;
        // what the database holds (a write refused with 503 after its commit would count too)
        const attestations = (
          await shared.database.db
            .selectFrom('agent_reviews')
            .select('id')
            .where('story_id', '=', story.storyId)
            .where('kind', '=', 'ATTESTATION')
            .execute()
        ).length;
        const after = await read(b.baseUrl, url);
        if (after.status !== 200 || after.cache !== 'miss' || after.body.counts.attestations !== attestations)
          return `B answered ${after.status} (${after.cache}) after the write, with ${after.body.counts?.attestations} attestations, not ${attestations}`;
        return null;
      };
      for (;;) {
        // (a request refused during the move throws in the helpers that expect 202)
        const problem = await round().catch((err: unknown) => String(err));
        if (problem === null) break;
        lastProblem = problem;
        assert.ok(Date.now() - failedOverAt < 15_000, `still failing 15 s after the failover: ${lastProblem}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
}
