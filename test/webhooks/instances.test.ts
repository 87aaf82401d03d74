import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { poolerEnv } from '../helpers/db-template.js';
import { createTestCertificate, startReceiver, type Receiver, type TestCertificate } from '../helpers/https-receiver.js';
import { needsPostgres } from '../helpers/needs.js';
import { attempts, correct, deliveries, retract, webhookApp, WEBHOOK_SECRET } from './support.js';
import { tsEntry } from '../helpers/ts-entry.js';
import { until } from '../helpers/until.js';

/**
 * The service and `npm run worker` as real processes on one PostgreSQL database, trusting the receiver's
 * throwaway certificate the standard Node way: NODE_EXTRA_CA_CERTS, read when the process starts.
 */

type Started = { child: ChildProcess; exited: Promise<number | null> };

function start(entry: 'service' | 'worker', env: Record<string, string>): Started {
  const script = entry === 'service' ? 'src/server.ts' : 'src/delivery/webhooks/worker-cli.ts';
  const child = spawn(process.execPath, tsEntry(script), {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { child, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

async function stop(p: Started, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
  await p.exited;
}

/** How long the deliveries may take to arrive before the test fails (a harness bound, not an assertion on time). */
const DELIVERED_WITHIN_MS = 30_000;

const pg = needsPostgres('two processes share one database (PGlite lives inside one process)');

describe('webhook workers as processes', () => {
  let cert: TestCertificate;
  let receiver: Receiver;
  let db: TestDatabase;
  let app: Awaited<ReturnType<typeof webhookApp>>;
  let env: Record<string, string>;
  before(async () => {
    if (pg) return;
    cert = createTestCertificate();
    receiver = await startReceiver(cert, WEBHOOK_SECRET);
    db = await createTestDatabase();
    app = await webhookApp([receiver.url], {}, db);
    env = {
      ...poolerEnv,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      SEED_DEMO: '0',
      PORT: '0',
      DATABASE_URL: db.url!,
      NODE_EXTRA_CA_CERTS: cert.certPath,
      WEBHOOK_ENDPOINTS: receiver.url,
      WEBHOOK_SIGNING_SECRET: WEBHOOK_SECRET,
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: '1',
      WEBHOOK_POLL_MS: '20',
      WEBHOOK_RETRY_BASE_MS: '200',
      WEBHOOK_TIMEOUT_MS: '1000',
    };
  });
  /** Waits until every delivery of the test database is DELIVERED. */
  const allDelivered = () =>
    until(
      async () => (await deliveries(app.g)).every((d) => d.status === 'DELIVERED'),
      DELIVERED_WITHIN_MS,
      'every delivery to be DELIVERED',
    );
  after(async () => {
    if (pg) return;
    await app.g.t.close();
    await db.drop();
    await receiver.close();
    cert.cleanup();
  });

  test('a service and `npm run worker` on one database deliver each event exactly once', { skip: pg }, async () => {
    receiver.requests.length = 0;
    const events: string[] = [];
    for (let i = 0; i < 12; i++) {
      const story = await app.news.publishedStory();
      events.push((await correct(app.g, story.storyId)).body.webhookEventId, (await retract(app.g, story.storyId)).body.webhookEventId);
    }
    const service = start('service', env);
    const worker = start('worker', env);
    try {
      await allDelivered();
    } finally {
      await stop(service);
      await stop(worker);
    }
    assert.equal(receiver.requests.length, events.length, 'one request per event');
    assert.deepEqual(receiver.requests.map((r) => r.id).sort(), [...events].sort());
    assert.ok(receiver.requests.every((r) => r.signatureValid));
    for (const d of await deliveries(app.g)) {
      assert.equal(d.attempts, 1, 'claimed once');
      assert.equal((await attempts(app.g, d.id)).length, 1);
    }
  });

  test('a service killed during a delivery leaves it to the next one, which delivers it with the same id', { skip: pg }, async () => {
    receiver.requests.length = 0;
    receiver.plan('hang');
    const story = await app.news.publishedStory();
    const corrected = await correct(app.g, story.storyId);
    const first = start('service', env);
    try {
      await receiver.waitForRequests(1);
    } finally {
      await stop(first, 'SIGKILL');
    }
    const [claimed] = (await deliveries(app.g)).filter((d) => d.event_id === corrected.body.webhookEventId);
    assert.equal(claimed!.status, 'PENDING', 'the killed service never recorded an outcome');
    const second = start('worker', env);
    try {
      await allDelivered();
    } finally {
      await stop(second);
    }
    assert.deepEqual(
      receiver.requests.map((r) => r.id),
      [corrected.body.webhookEventId, corrected.body.webhookEventId],
    );
    assert.equal(receiver.delivered().length, 1);
    const [delivery] = (await deliveries(app.g)).filter((d) => d.event_id === corrected.body.webhookEventId);
    assert.equal(delivery!.attempts, 2);
  });

  test('operators read the delivery log with `npm run webhooks:deliveries`', { skip: pg }, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [...tsEntry('src/delivery/webhooks/deliveries-cli.ts'), '--json'], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    const log = JSON.parse(stdout) as {
      counts: { pending: number; failed: number; delivered: number; dead: number };
      deliveries: { id: string; status: string; attempts: { outcome: string; worker: string }[] }[];
    };
    const rows = await deliveries(app.g);
    assert.equal(log.counts.delivered, rows.filter((d) => d.status === 'DELIVERED').length);
    assert.equal(log.counts.pending + log.counts.failed + log.counts.dead, rows.length - log.counts.delivered);
    assert.equal(log.deliveries.length, rows.length);
    for (const d of log.deliveries) {
      assert.equal(d.status, 'DELIVERED');
      const last = d.attempts[d.attempts.length - 1]!;
      assert.equal(last.outcome, 'DELIVERED', 'each delivery shows the attempt that delivered it');
      assert.ok(last.worker, 'and the worker that made it');
    }
  });
});
