import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createServiceClient, signHumanRequest } from '../../sdk/index.js';
import { createTestDatabase, TEST_SECRET, type TestDatabase } from '../helpers/app.js';
import { createTestCertificate, startReceiver, type Receiver, type TestCertificate } from '../helpers/https-receiver.js';
import { bindActor } from '../helpers/identity.js';
import { HOUR_MS, newsroomFactory } from '../helpers/newsroom-factory.js';
import { newsroomClient } from '../helpers/newsroom.js';
import { needsPostgres, needsRedis } from '../helpers/needs.js';
import { deleteRedisPrefix, testRedisPrefix } from '../helpers/redis.js';
import { rewardVote } from '../settlements/support.js';
import { until } from '../helpers/until.js';
import { serviceEnv, startRoundRobinProxy, startService, type RoundRobinProxy, type ServiceProcess } from './harness.js';
import type { Json } from '../helpers/json.js';

/**
 * Two service processes (src/server.ts, as operators run them) on one PostgreSQL database and one Redis
 * prefix, behind a round-robin proxy: what one instance saw, the other knows.
 */

const WEBHOOK_SECRET = 'whsec-multi-instance-0123';
const HUMAN_WRITES_PER_MINUTE = 20;
const skip = needsPostgres('two processes share one database') || needsRedis('two processes share nonces and rate limits');

async function send(base: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as Json };
}

/** A human signed write sent to `base` (a fresh nonce each time). */
function humanWrite(base: string, path: string, body: Json) {
  return send(base, path, { method: 'POST', headers: { ...signHumanRequest({ secret: TEST_SECRET, method: 'POST', path, body }) }, body });
}

describe('two instances behind a round-robin proxy', () => {
  let db: TestDatabase;
  let prefix: string;
  let cert: TestCertificate;
  let receiver: Receiver;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let proxy: RoundRobinProxy;
  let f: ReturnType<typeof newsroomFactory>;

  before(async () => {
    if (skip) return;
    db = await createTestDatabase();
    prefix = testRedisPrefix();
    cert = createTestCertificate();
    receiver = await startReceiver(cert, WEBHOOK_SECRET);
    await bindActor(db.database, 'admin', 'h_admin', 'L3');
    await bindActor(db.database, 'treasurer', 'h_treasurer', 'L3');
    f = newsroomFactory(db.database.db, Date.now());
    const env = serviceEnv(
      { databaseUrl: db.url!, redisUrl: process.env.TEST_REDIS_URL!, redisKeyPrefix: prefix },
      { certPath: cert.certPath, receiverUrl: receiver.url, secret: WEBHOOK_SECRET },
      {
        REWARDS_ADMIN_IDS: 'h_treasurer',
        RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: String(HUMAN_WRITES_PER_MINUTE),
        RATE_LIMIT_AGENT_JOINS_PER_MINUTE: '1000',
        RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '1000',
        WEBHOOK_POLL_MS: '20',
      },
    );
    [a, b] = await Promise.all([startService(env), startService(env)]);
    proxy = await startRoundRobinProxy([a.url, b.url]);
  });

  after(async () => {
    if (skip) return;
    await proxy?.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await receiver.close();
    cert.cleanup();
    await db.drop();
    await deleteRedisPrefix(prefix);
  });

  test('a signed write accepted by one instance is refused as a replay by the other', { skip }, async () => {
    const story = await f.story();
    const path = `/v1/stories/${story.id}/comments`;
    const body = { actorId: 'replayer', verified: false, body: `once ${randomBytes(4).toString('hex')}` };
    const headers = { ...signHumanRequest({ secret: TEST_SECRET, method: 'POST', path, body }) };
    const first = await send(a.url, path, { method: 'POST', headers, body });
    assert.equal(first.status, 202, JSON.stringify(first.body));
    const replay = await send(b.url, path, { method: 'POST', headers, body });
    assert.equal(replay.status, 409);
    assert.equal(replay.body.code, 'REPLAY_DETECTED');
    const rows = await db.database.db.selectFrom('comments').select('id').where('body', '=', body.body).execute();
    assert.equal(rows.length, 1);
  });

  test('an idempotency key used on one instance replays its answer on the other', { skip }, async () => {
    const news = newsroomClient(proxy.url);
    const bot = await news.joinBot();
    const body = { botId: bot.botId, verified: false, ...news.packet() };
    const key = `idem-${randomBytes(6).toString('hex')}`;
    const first = await createServiceClient({ baseUrl: a.url }).agentWrite<Json>(bot, '/v1/candidates', body, { idempotencyKey: key });
    assert.equal(first.status, 202, JSON.stringify(first.body));
    // signed again (a fresh nonce): only the idempotency key says it is the same request
    const again = await createServiceClient({ baseUrl: b.url }).agentWrite<Json>(bot, '/v1/candidates', body, { idempotencyKey: key });
    assert.equal(again.status, 202);
    assert.equal(again.headers.get('idempotent-replayed'), 'true', 'B answered from the record A wrote');
    assert.deepEqual(again.body, first.body);
    const candidates = await db.database.db.selectFrom('stories').select('id').where('author_bot_id', '=', bot.botId).execute();
    assert.equal(candidates.length, 1);
  });

  test('a per-actor write limit counts the writes of both instances together', { skip }, async () => {
    const story = await f.story();
    const before = [...proxy.counts];
    const statuses: number[] = [];
    for (let i = 0; i < HUMAN_WRITES_PER_MINUTE + 6; i++) {
      const res = await humanWrite(proxy.url, `/v1/stories/${story.id}/comments`, { actorId: 'limited', verified: false, body: `n${i}` });
      statuses.push(res.status);
      if (res.status === 429) assert.equal(res.body.code, 'RATE_LIMITED');
    }
    assert.equal(statuses.filter((s) => s === 202).length, HUMAN_WRITES_PER_MINUTE, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 429).length, 6);
    assert.deepEqual(
      proxy.counts.map((n, i) => n - before[i]!),
      [13, 13],
      'each instance saw half of the writes',
    );
  });

  test('webhook deliveries made by two instances reach the receiver once each', { skip }, async () => {
    receiver.requests.length = 0;
    const events: string[] = [];
    for (let i = 0; i < 8; i++) {
      const story = await f.story();
      const res = await humanWrite(proxy.url, `/v1/admin/stories/${story.id}/correction`, {
        actorId: 'admin',
        linkedHumanId: 'h_admin',
        verified: true,
        changes: { summary: `Corrected summary ${i} ${randomBytes(3).toString('hex')}.` },
        note: 'A figure was wrong.',
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      events.push(res.body.webhookEventId as string);
    }
    const deliveries = () =>
      db.database.db.selectFrom('webhook_deliveries').select(['event_id', 'status', 'attempts']).where('event_id', 'in', events).execute();
    await until(async () => (await deliveries()).every((d) => d.status === 'DELIVERED'), 30_000, 'every delivery DELIVERED');
    assert.deepEqual(receiver.requests.map((r) => r.id).sort(), [...events].sort(), 'one request per event');
    assert.ok(receiver.requests.every((r) => r.signatureValid));
    for (const d of await deliveries()) assert.equal(d.attempts, 1, 'claimed by one worker');
  });

  test('two settlement runs sent to the two instances at once: one settles, the other finds nothing left', { skip }, async () => {
    for (let i = 0; i < 10; i++) {
      const publishedAt = new Date(Date.now() - 96 * HOUR_MS);
      const s = await f.story({ publishedAt, rewardWindowEndsAt: new Date(publishedAt.getTime() + 72 * HOUR_MS) });
      await rewardVote(db.database.db, s.id, `voter-${i}`, 'UP', 1 + (i % 3));
    }
    const run = (base: string) =>
      humanWrite(base, '/v1/rewards/settlements/run', {
        actorId: 'treasurer',
        linkedHumanId: 'h_treasurer',
        verified: true,
        totalPoolOrbs: 100,
      });
    const results = await Promise.all([run(a.url), run(b.url)]);
    assert.deepEqual(results.map((r) => r.status).sort(), [202, 409], JSON.stringify(results.map((r) => r.body)));
    assert.equal(results.find((r) => r.status === 409)!.body.code, 'NOTHING_TO_SETTLE');
    const settlements = await db.database.db.selectFrom('settlements').select('id').execute();
    assert.equal(settlements.length, 1);
    const settled = await db.database.db.selectFrom('settled_stories').select('story_id').execute();
    assert.equal(settled.length, 10);
  });

  test('a read on one instance never serves a body older than a write the other just answered', { skip }, async () => {
    const story = await f.story();
    const path = `/v1/stories/${story.id}/comments?limit=100`;
    let cachedBeforeWrite = 0;
    for (let i = 0; i < 16; i++) {
      const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a];
      // the reader holds the list in its read cache ...
      await send(reader.url, path);
      const primed = await send(reader.url, path);
      if (primed.headers.get('x-read-cache') === 'hit') cachedBeforeWrite++;
      // ... the writer answers a comment ...
      const written = await humanWrite(writer.url, `/v1/stories/${story.id}/comments`, {
        actorId: `reader-${i}`,
        verified: false,
        body: `c${i}`,
      });
      assert.equal(written.status, 202, JSON.stringify(written.body));
      // ... and the reader's next answer has it
      const read = await send(reader.url, path);
      assert.equal(read.status, 200);
      const ids = (read.body.items as { id: string }[]).map((c) => c.id);
      assert.ok(ids.includes(written.body.id as string), `round ${i}: the comment ${written.body.id} is missing on the other instance`);
      assert.equal(ids.length, i + 1);
    }
    assert.equal(cachedBeforeWrite, 16, 'the reader served each list from its cache before the write');
  });
});
