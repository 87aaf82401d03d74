import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { createApiClient, humanSigning, readYourWrites, signHumanRequest } from '../../sdk/index.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/platform/db/database.js';
import { parseLsn } from '../../src/platform/db/read-replica.js';
import { TEST_SECRET, testEnv } from '../helpers/app.js';
import { newsroomFactory, type NewsroomFactory } from '../helpers/newsroom-factory.js';
import { replicatedPostgresMissing, startReplicatedPostgres, type ReplicatedPostgres } from '../helpers/replicated-postgres.js';
import { until } from '../helpers/until.js';
import type { DB } from '../../src/tables.js';

/**
 * Public reads on a real streaming replica: a private primary and a replica of it (pg_basebackup -R) that this
 * file starts and stops. Which server answered is observed through data: with the replica's replay paused, a
 * story written on the primary since is missing from the replica only, so a 404 (or a stale count) is the
 * replica's answer and a 200 (or the new count) the primary's.
 */

const skip = replicatedPostgresMissing();
const MAX_LAG_MS = 1_500;
/** How long a wait on the replica may take before the test fails (a harness bound, not an assertion on time). */
const WAIT_MS = 15_000;

describe('public reads on a streaming read replica', { skip }, () => {
  let pair: ReplicatedPostgres;
  let app: FastifyInstance;
  let replica: Database<DB>;
  let factory: NewsroomFactory;
  let setupMs = 0;
  /** Who answered each public read since the last reset: the primary, the replica, or the read cache. */
  let answeredBy: ('primary' | 'replica' | 'cache')[] = [];
  const recordAnswers = fp(async (instance) => {
    instance.addHook('onResponse', async (request, reply) => {
      if (!request.url.startsWith('/v1/')) return;
      const by = request.readFrom ?? (reply.getHeader('x-read-cache') === 'hit' ? 'cache' : undefined);
      if (by) answeredBy.push(by);
    });
  });
  const primaryPosition = async () =>
    (await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(app.ctx.database.db)).rows[0]!.lsn;

  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await app.inject({ method: 'GET', url, headers });
    return { status: res.statusCode, headers: res.headers, body: res.json() as Record<string, unknown> };
  };
  const readyz = async () => {
    const res = await get('/readyz');
    const check = (res.body.checks as Record<string, { ok: boolean; required: boolean; detail?: string }>).readReplica!;
    return { status: res.status, ready: res.body.status, check };
  };
  const replayLsn = async () => (await sql<{ lsn: string }>`select pg_last_wal_replay_lsn()::text as lsn`.execute(replica.db)).rows[0]!.lsn;
  const pauseReplay = async () => {
    await sql`select pg_wal_replay_pause()`.execute(replica.db);
    await until(
      async () => {
        const { rows } = await sql<{ state: string }>`select pg_get_wal_replay_pause_state() as state`.execute(replica.db);
        return rows[0]!.state === 'paused';
      },
      WAIT_MS,
      'the replay to pause',
    );
  };
  const resumeReplay = () => sql`select pg_wal_replay_resume()`.execute(replica.db);
  /** Waits until the replica has replayed everything the primary has written so far. */
  const caughtUp = async () => {
    const target = parseLsn(await primaryPosition())!;
    await until(async () => parseLsn(await replayLsn())! >= target, WAIT_MS, 'the replica to replay the primary');
  };
  const replicaUp = () => until(async () => (await readyz()).check.ok, WAIT_MS, '/readyz to report the replica up');
  /** A story written while the replica's replay is paused: a public read of it is 404 exactly when the replica answers. */
  const servedByReplica = async () => {
    await replicaUp();
    await pauseReplay();
    try {
      const story = await factory.story();
      return (await get(`/v1/stories/${story.id}`)).status === 404;
    } finally {
      await resumeReplay();
    }
  };
  const comment = async (storyId: string, text: string) => {
    const path = `/v1/stories/${storyId}/comments`;
    const body = { actorId: 'replica-reader', verified: false, body: text };
    const res = await app.inject({
      method: 'POST',
      url: path,
      headers: signHumanRequest({ secret: TEST_SECRET, method: 'POST', path, body }),
      payload: body,
    });
    assert.equal(res.statusCode, 202, res.body);
    return res.headers['x-read-after'] as string;
  };
  const commentCount = async (storyId: string, headers: Record<string, string> = {}) => {
    const res = await get(`/v1/stories/${storyId}`, headers);
    assert.equal(res.status, 200);
    return { count: (res.body.counts as { comments: number }).comments, cache: res.headers['x-read-cache'] };
  };

  before(async () => {
    const started = performance.now();
    pair = await startReplicatedPostgres();
    const config = loadConfig(
      testEnv({
        DATABASE_URL: pair.primaryUrl,
        DATABASE_READ_URL: pair.replicaUrl,
        DATABASE_READ_MAX_LAG_MS: String(MAX_LAG_MS),
        RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '1000000',
        // the test's own servers: never the suite's Redis
        REDIS_URL: undefined,
        NONCE_STORE_DRIVER: 'memory',
        RATE_LIMIT_STORE_DRIVER: 'memory',
      }),
    );
    app = await buildApp(config, { logger: false, plugins: [recordAnswers] }); // migrates the primary; the replica follows
    replica = await openDatabase<DB>({ databaseUrl: pair.replicaUrl, dataDir: '', poolMax: 1 });
    factory = newsroomFactory(app.ctx.database.db);
    await caughtUp();
    setupMs = Math.round(performance.now() - started);
  });
  after(async () => {
    await app?.close();
    await replica?.close();
    pair?.destroy();
  });

  test('a public read is served by the replica; the service keeps sessions there', async (t) => {
    t.diagnostic(`primary, replica and migrations ready in ${setupMs} ms`);
    assert.equal(await servedByReplica(), true);
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_stat_activity where application_name = 'newsroom-read'`.execute(replica.db);
    assert.ok(rows[0]!.n > 0, 'the service has sessions on the replica');
  });

  test('after a write, a read carrying its x-read-after sees it even while the replica is paused: the primary answers', async () => {
    const story = await factory.story();
    await caughtUp();
    await replicaUp();
    assert.equal((await commentCount(story.id)).count, 0);
    await pauseReplay();
    try {
      const readAfter = await comment(story.id, 'first');
      assert.match(readAfter, /^[0-9A-F]+\/[0-9A-F]+$/);
      assert.ok(parseLsn(readAfter)! > parseLsn(await replayLsn())!, 'the write is past what the replica replayed');
      // without the header: the paused replica's answer (its lag is still within the limit), the comment missing
      assert.equal((await commentCount(story.id)).count, 0);
      // with it: never the replica, nor the replica's body just cached; the primary's body, then that body cached
      const caches: unknown[] = [];
      for (let i = 0; i < 5; i += 1) {
        const read = await commentCount(story.id, { 'x-read-after': readAfter });
        assert.equal(read.count, 1);
        caches.push(read.cache);
      }
      assert.deepEqual(caches, ['miss', 'hit', 'hit', 'hit', 'hit']);
    } finally {
      await resumeReplay();
    }
    await caughtUp();
    await until(async () => (await commentCount(story.id)).count === 1, WAIT_MS, 'the replica to serve the comment');
  });

  test('a malformed x-read-after is ignored: the read is answered as one without it, by the replica and the read cache', async () => {
    const story = await factory.story();
    await caughtUp();
    await replicaUp();
    await pauseReplay();
    try {
      const readAfter = await comment(story.id, 'unseen by the paused replica');
      // without the header: the replica's body, without the comment, cached
      assert.deepEqual(await commentCount(story.id), { count: 0, cache: 'miss' });
      answeredBy = [];
      const malformed = ['not-a-position', '0/', '/1A', 'G/1', '1/2/3', '123456789/0', '0x1/0x2', `${'F'.repeat(4_000)}/0`];
      for (const value of malformed) {
        const read = await get(`/v1/stories/${story.id}`, { 'x-read-after': value });
        assert.equal(read.status, 200, `${value}: ${JSON.stringify(read.body)}`);
        assert.equal((read.body.counts as { comments: number }).comments, 0, value);
        assert.equal(read.headers['x-read-cache'], 'hit', value);
      }
      assert.deepEqual(answeredBy, Array(malformed.length).fill('cache'), 'none reached the primary');
      // the client's real position still reads its write: not the replica's cached body, the primary
      answeredBy = [];
      assert.deepEqual(await commentCount(story.id, { 'x-read-after': readAfter }), { count: 1, cache: 'miss' });
      assert.deepEqual(answeredBy, ['primary']);
    } finally {
      await resumeReplay();
    }
  });

  test('a position ahead of the primary counts as its current one: FFFFFFFF/FFFFFFFF reads a caught-up replica and the read cache; a real position this instance has not seen still reads its write', async () => {
    const story = await factory.story();
    await caughtUp();
    await replicaUp();
    const future = { 'x-read-after': 'FFFFFFFF/FFFFFFFF' };
    answeredBy = [];
    for (let i = 0; i < 10; i += 1) assert.equal((await get(`/v1/stories/${story.id}`, future)).status, 200);
    // the primary writes a little WAL of its own now and then (autovacuum, standby snapshots): a read may meet a
    // check that saw it before the replica replayed it; without the clamp every read is the primary's, uncached
    const primary = answeredBy.filter((by) => by === 'primary').length;
    const cached = answeredBy.filter((by) => by === 'cache').length;
    assert.ok(primary <= 1 && cached >= 8, `answered by ${answeredBy.join(', ')}`);

    // a story written on the primary, not through this instance, with the primary's position after it: an honest
    // position from another instance's write, newer than any this one knows; the replica, paused, lacks it
    const onReplica = async (id: string) =>
      (await sql<{ n: number }>`select count(*)::int as n from stories where id = ${id}`.execute(replica.db)).rows[0]!.n === 1;
    await pauseReplay();
    try {
      const written = await factory.story();
      const readAfter = await primaryPosition();
      assert.equal(await onReplica(written.id), false, 'the paused replica lacks it');
      answeredBy = [];
      assert.equal((await get(`/v1/stories/${written.id}`, { 'x-read-after': readAfter })).status, 200);
      assert.deepEqual(answeredBy, ['primary']);
      // an invented position counts as the primary's now, not as the last this instance knew: a story written since
      // is not missed either
      const later = await factory.story();
      assert.equal(await onReplica(later.id), false);
      assert.equal((await get(`/v1/stories/${later.id}`, future)).status, 200);
    } finally {
      await resumeReplay();
    }
  });

  test("the SDK's readYourWrites middleware carries the position from a client's write to its public reads", async () => {
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' }).then(() => {
      const address = app.server.address();
      return typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
    });
    const story = await factory.story();
    await caughtUp();
    await replicaUp();
    const positions = readYourWrites();
    const writer = createApiClient({ baseUrl });
    writer.use(humanSigning({ secret: TEST_SECRET }), positions);
    const reader = createApiClient({ baseUrl });
    reader.use(positions);
    const plain = createApiClient({ baseUrl });
    const count = async (client: typeof reader) => {
      const res = await client.GET('/v1/stories/{id}', { params: { path: { id: story.id }, query: {} } });
      assert.equal(res.response.status, 200);
      return res.data!.counts.comments;
    };
    await pauseReplay();
    try {
      const posted = await writer.POST('/v1/stories/{id}/comments', {
        params: { path: { id: story.id } },
        body: { actorId: 'sdk-reader', verified: false, body: 'through the SDK' },
      });
      assert.equal(posted.response.status, 202);
      assert.equal(await count(plain), 0, 'a client without the position reads the paused replica');
      assert.equal(await count(reader), 1, 'the reader sharing the middleware sends the position: the primary answers');
    } finally {
      await resumeReplay();
    }
  });

  test('a replica lagging past DATABASE_READ_MAX_LAG_MS is skipped: reads from the primary, /readyz ready with the replica not ok', async () => {
    await replicaUp();
    await pauseReplay();
    try {
      const story = await factory.story();
      assert.equal((await get(`/v1/stories/${story.id}`)).status, 404, 'within the lag limit the paused replica still answers');
      await until(async () => (await get(`/v1/stories/${story.id}`)).status === 200, MAX_LAG_MS * 4, 'reads to leave the lagging replica');
      const health = await readyz();
      assert.equal(health.status, 200);
      assert.equal(health.ready, 'ready');
      assert.equal(health.check.ok, false);
      assert.equal(health.check.required, false);
      assert.match(health.check.detail ?? '', /^lagging/);
    } finally {
      await resumeReplay();
    }
    await replicaUp();
  });

  test('the replica stopped: reads 200 from the primary, /readyz ready and says it is down; started again: reads return to it', async () => {
    const story = await factory.story();
    await caughtUp();
    await replicaUp();
    pair.stopReplica();
    const written = await factory.story(); // only the primary can answer for it now
    const statuses = new Set<number>();
    for (let i = 0; i < 20; i += 1) {
      statuses.add((await get(`/v1/stories/${story.id}`)).status);
      statuses.add((await get(`/v1/stories/${written.id}`)).status);
      statuses.add((await get('/v1/feed?mode=recent')).status);
    }
    assert.deepEqual([...statuses], [200]);
    const health = await readyz();
    assert.equal(health.status, 200);
    assert.equal(health.ready, 'ready');
    assert.equal(health.check.ok, false);
    assert.match(health.check.detail ?? '', /^down/);

    pair.startReplica();
    await replicaUp();
    assert.equal(await servedByReplica(), true);
  });
});
