import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { createServiceClient, generateAgentKey, signHumanRequest, type AgentKey } from '../../sdk/index.js';
import { createTestDatabase, TEST_API_KEY, TEST_OPS_TOKEN, TEST_SECRET, type TestDatabase } from '../helpers/app.js';
import { createTestCertificate, startReceiver, type Receiver, type TestCertificate } from '../helpers/https-receiver.js';
import { bindActor } from '../helpers/identity.js';
import { needsPostgres } from '../helpers/needs.js';
import { deleteRedisPrefix, testRedisPrefix } from '../helpers/redis.js';
import { startService, type ServiceProcess } from '../helpers/service-process.js';
import type { Json } from '../helpers/json.js';

/**
 * Graceful shutdown of the real service process (src/server.ts) under load: a driver sends public reads,
 * signed agent writes and signed human writes on keep-alive connections and records every answer; corrections
 * put webhook deliveries in flight to a receiver that answers slowly; a raw connection has sent half of a
 * signed write's body. Then SIGTERM. What must hold (docs/operators.md, "Shutdown"):
 *   - /readyz answers 503 (check `shutdown`) while the instance drains, before the listener closes;
 *   - then new connections are refused, while the half-sent request, finished after that, is still answered
 *     202 (with `connection: close`) and stored;
 *   - no answer is a 5xx; no request sent before SIGTERM is left without an answer;
 *   - the webhook worker finishes its attempts in flight: each request the receiver got is recorded;
 *   - the process exits 0 (close-with-grace exits 1 past its bound), in a time the test reports;
 *   - every 202 the driver saw is in the database afterwards.
 */

const WEBHOOK_SECRET = 'whsec-shutdown-0123456789';
const ADMIN = { actorId: 'shutdown-admin', linkedHumanId: 'h_shutdown_admin', verified: true };
const pg = needsPostgres('the service runs as its own process, and the test reads what it stored (PGlite lives inside one process)');

interface Outcome {
  kind: string;
  startedAt: number;
  status?: number;
  error?: string;
  id?: string;
}

describe('graceful shutdown of the service process under load', () => {
  let db: TestDatabase;
  let cert: TestCertificate;
  let receiver: Receiver;
  let service: ServiceProcess;
  const redisPrefix = testRedisPrefix();
  before(async () => {
    if (pg) return;
    db = await createTestDatabase();
    await bindActor(db.database, ADMIN.actorId, ADMIN.linkedHumanId, 'L3');
    cert = createTestCertificate();
    receiver = await startReceiver(cert, WEBHOOK_SECRET);
    const redis = process.env.TEST_REDIS_URL;
    service = await startService({
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      SEED_DEMO: '0',
      DATABASE_URL: db.url!,
      HUMAN_SIGNING_SECRET: TEST_SECRET,
      API_OPERATIONS_TOKEN: TEST_OPS_TOKEN,
      PUBLIC_API_KEYS: TEST_API_KEY,
      CONTENT_ADMIN_IDS: ADMIN.linkedHumanId,
      RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '1000000',
      RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '1000000',
      RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '1000000',
      RATE_LIMIT_AGENT_JOINS_PER_MINUTE: '1000000',
      SHUTDOWN_READINESS_DELAY_MS: '700',
      SHUTDOWN_TIMEOUT_MS: '10000',
      WEBHOOK_ENDPOINTS: receiver.url,
      WEBHOOK_SIGNING_SECRET: WEBHOOK_SECRET,
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: '1',
      WEBHOOK_POLL_MS: '20',
      WEBHOOK_TIMEOUT_MS: '5000',
      NODE_EXTRA_CA_CERTS: cert.certPath,
      ...(redis ? { REDIS_URL: redis, NONCE_STORE_DRIVER: 'redis', RATE_LIMIT_STORE_DRIVER: 'redis', REDIS_KEY_PREFIX: redisPrefix } : {}),
    });
  });
  after(async () => {
    if (pg) return;
    await service.stop('SIGKILL');
    await receiver.close();
    cert.cleanup();
    await db.drop();
    if (process.env.TEST_REDIS_URL) await deleteRedisPrefix(redisPrefix);
  });

  test(
    'SIGTERM: readiness 503, in-flight requests and deliveries finish, new connections refused, exit 0, no 202 lost',
    { skip: pg },
    async (t) => {
      const client = createServiceClient({ baseUrl: service.url, apiKey: TEST_API_KEY });
      const bots: AgentKey[] = [];
      for (let i = 0; i < 4; i++) {
        const key = generateAgentKey();
        const joined = await client.agentWrite(key, '/v1/agents/join', { publicKey: key.publicKey, name: `shutdown-${i}` });
        assert.equal(joined.status, 202, JSON.stringify(joined.body));
        bots.push(key);
      }
      const packet = (tag: string) => ({
        room: 'world',
        lang: 'en',
        title: `Harbour authority approves ferry schedule ${tag}`,
        summary: 'The port authority voted to add two evening ferry crossings from next month.',
        body: `The harbour authority approved an expanded ferry timetable (${tag}). Two evening crossings will be added.`,
        claims: [{ text: 'The authority approved two extra evening crossings.' }],
        sources: [{ url: `https://example.org/ferry-${tag}`, title: 'Authority minutes' }],
      });
      const storyIds: string[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await client.agentWrite<Json>(bots[i]!, '/v1/candidates', {
          botId: bots[i]!.botId,
          verified: false,
          ...packet(`seed-${i}`),
        });
        assert.equal(res.status, 202, JSON.stringify(res.body));
        const published = await fetch(`${service.url}/v1/publish/${res.body.hash}/compute`, {
          method: 'POST',
          headers: { 'x-operations-token': TEST_OPS_TOKEN },
        });
        assert.equal(published.status, 200);
        storyIds.push(res.body.storyId as string);
      }

      // the driver: 6 loops on keep-alive connections until the service refuses connections
      const outcomes: Outcome[] = [];
      let refusedSince = 0;
      let sigtermAt = Infinity;
      const errorCode = (err: unknown) => {
        const cause = (err as { cause?: { code?: string } }).cause;
        return cause?.code ?? (err as Error).name;
      };
      async function one(i: number, n: number) {
        const startedAt = performance.now();
        const tag = `${i}-${n}-${randomBytes(3).toString('hex')}`;
        const kind = ['read', 'agent', 'human'][n % 3]!;
        try {
          if (kind === 'read') {
            const res = await fetch(`${service.url}/v1/stories/${storyIds[n % storyIds.length]}`);
            await res.arrayBuffer();
            outcomes.push({ kind, startedAt, status: res.status });
          } else if (kind === 'agent') {
            const bot = bots[i % bots.length]!;
            const res = await client.agentWrite<Json>(bot, '/v1/candidates', { botId: bot.botId, verified: false, ...packet(tag) });
            outcomes.push({ kind, startedAt, status: res.status, id: res.body.hash });
          } else {
            const res = await client.humanWrite<Json>(TEST_SECRET, `/v1/stories/${storyIds[n % storyIds.length]}/comments`, {
              actorId: `reader-${i}`,
              verified: false,
              body: `Comment ${tag}`,
            });
            outcomes.push({ kind, startedAt, status: res.status, id: res.body.id });
          }
          refusedSince = 0;
        } catch (err) {
          const code = errorCode(err);
          outcomes.push({ kind, startedAt, error: code });
          if (code === 'ECONNREFUSED') refusedSince ||= performance.now();
        }
      }
      const loops = Array.from({ length: 6 }, async (_, i) => {
        for (let n = 0; !(refusedSince && performance.now() - refusedSince > 300); n++) await one(i, n);
      });

      // a signed comment whose body is half sent when SIGTERM comes
      const slowBody = JSON.stringify({ actorId: 'slow-reader', verified: false, body: `Slow comment ${randomBytes(3).toString('hex')}` });
      const slowPath = `/v1/stories/${storyIds[0]}/comments`;
      const signed = signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: slowPath, body: JSON.parse(slowBody) });
      const slow = connect(service.port, '127.0.0.1');
      const slowChunks: Buffer[] = [];
      slow.on('data', (c: Buffer) => slowChunks.push(c));
      const slowClosed = new Promise<void>((resolve) => slow.once('close', () => resolve()));
      await new Promise<void>((resolve) => slow.once('connect', () => resolve()));
      const headerLines = Object.entries(signed)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      slow.write(
        `POST ${slowPath} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(slowBody)}\r\n${headerLines}\r\n${slowBody.slice(0, 10)}`,
      );

      // webhook deliveries in flight: the receiver takes 1.5 s to answer each
      receiver.fallback = { status: 200, delayMs: 1_500 };
      await sleep(400);
      for (const storyId of storyIds.slice(1, 4)) {
        const corrected = await client.humanWrite<Json>(TEST_SECRET, `/v1/admin/stories/${storyId}/correction`, {
          ...ADMIN,
          changes: { summary: `Corrected before shutdown ${randomBytes(3).toString('hex')}.` },
          note: 'The count was wrong.',
        });
        assert.equal(corrected.status, 202, JSON.stringify(corrected.body));
      }
      await receiver.waitForRequests(1);

      sigtermAt = performance.now();
      service.child.kill('SIGTERM');
      // readiness turns 503 while the instance still listens
      let readiness: { status: number; body: Json } | undefined;
      for (;;) {
        const res = await fetch(`${service.url}/readyz`).catch(() => undefined);
        if (!res) break;
        const body = (await res.json()) as Json;
        if (res.status === 503) {
          readiness = { status: res.status, body };
          break;
        }
      }
      assert.ok(readiness, 'readiness answered 503 before the listener closed');
      assert.equal(readiness.body.checks.shutdown.ok, false);
      assert.equal(readiness.body.status, 'not_ready');

      // new connections are refused...
      for (;;) {
        const refused = await new Promise<boolean>((resolve) => {
          const probe = connect(service.port, '127.0.0.1');
          probe.once('connect', () => {
            probe.destroy();
            resolve(false);
          });
          probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
        });
        if (refused) break;
        await sleep(20);
      }
      assert.equal(service.child.exitCode, null, 'the process is still draining');
      // ...while the request in flight is finished and answered
      slow.write(slowBody.slice(10));
      await slowClosed;
      const slowAnswer = Buffer.concat(slowChunks).toString('utf8');
      assert.match(slowAnswer, /^HTTP\/1\.1 202 /, slowAnswer);
      assert.match(slowAnswer, /\r\nconnection: close\r\n/i);
      const slowId = (JSON.parse(slowAnswer.slice(slowAnswer.indexOf('\r\n\r\n') + 4)) as Json).id as string;

      const exitCode = await service.exited;
      const shutdownMs = performance.now() - sigtermAt;
      await Promise.all(loops);
      assert.equal(exitCode, 0, service.output().slice(-3000));
      t.diagnostic(`SIGTERM to exit: ${Math.round(shutdownMs)} ms (readiness delay 700 ms, receiver answers in 1500 ms)`);

      // every answer the driver got: no 5xx; requests sent before SIGTERM all answered
      assert.ok(outcomes.length > 30, `the driver made ${outcomes.length} requests`);
      const fiveXx = outcomes.filter((o) => (o.status ?? 0) >= 500);
      assert.deepEqual(fiveXx, [], 'no 5xx');
      const unanswered = outcomes.filter((o) => o.error && o.startedAt < sigtermAt);
      assert.deepEqual(unanswered, [], 'every request sent before SIGTERM was answered');
      const afterErrors = outcomes.filter((o) => o.error && o.error !== 'ECONNREFUSED');
      t.diagnostic(
        `driver: ${outcomes.length} requests, ${outcomes.filter((o) => o.status === 202).length} accepted, ` +
          `${outcomes.filter((o) => o.error === 'ECONNREFUSED').length} refused after the listener closed, ` +
          `${afterErrors.length} other transport errors after SIGTERM (${[...new Set(afterErrors.map((o) => o.error))].join(', ') || 'none'})`,
      );

      // the worker finished its attempts in flight: each request the receiver got is recorded as an attempt
      const attempts = await db.database.db.selectFrom('webhook_attempts').select(['delivery_id', 'outcome']).execute();
      assert.ok(receiver.requests.length >= 1);
      assert.equal(attempts.length, receiver.requests.length, 'every delivery attempt made was recorded');
      const delivered = await db.database.db.selectFrom('webhook_deliveries').select(['event_id', 'status']).execute();
      for (const r of receiver.requests)
        assert.equal(delivered.find((d) => d.event_id === r.id)?.status, 'DELIVERED', `event ${r.id} answered 200 and recorded DELIVERED`);

      // no accepted request lost
      const accepted = outcomes.filter((o) => o.status === 202);
      const hashes = accepted.filter((o) => o.kind === 'agent').map((o) => o.id!);
      const comments = [...accepted.filter((o) => o.kind === 'human').map((o) => o.id!), slowId];
      assert.ok(hashes.length > 0 && comments.length > 1);
      const storedHashes = await db.database.db.selectFrom('candidates').select('hash').where('hash', 'in', hashes).execute();
      assert.equal(storedHashes.length, new Set(hashes).size, 'every accepted candidate is stored');
      const storedComments = await db.database.db.selectFrom('comments').select('id').where('id', 'in', comments).execute();
      assert.equal(storedComments.length, comments.length, 'every accepted comment is stored');
      assert.match(service.output(), /"msg":"shut down"/);
    },
  );
});
