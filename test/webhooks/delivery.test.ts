import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestCertificate, startReceiver, type Receiver, type TestCertificate } from '../helpers/https-receiver.js';
import { attempts, correct, deliveries, metricsText, retract, stepWorker, webhookApp, WEBHOOK_SECRET } from './support.js';
import type { Json } from '../helpers/json.js';

let cert: TestCertificate;
before(() => {
  cert = createTestCertificate();
});
after(() => cert.cleanup());

describe('corrections and retractions reach a real HTTPS receiver, signed as documented', () => {
  let receiver: Receiver;
  let app: Awaited<ReturnType<typeof webhookApp>>;
  let w: ReturnType<typeof stepWorker>;
  before(async () => {
    receiver = await startReceiver(cert, WEBHOOK_SECRET);
    app = await webhookApp([receiver.url]);
    w = stepWorker(app.g, cert.cert);
  });
  after(async () => {
    await w.close();
    await app.g.t.close();
    await receiver.close();
  });

  test('a correction: new version, CORRECTION on the ledger, visible at once (read cache too), delivered signed', async () => {
    const story = await app.news.publishedStory();
    const before = await app.g.client.get<Json>(`/v1/stories/${story.storyId}`);
    assert.equal((await app.g.client.get<Json>(`/v1/stories/${story.storyId}`)).body.summary, before.body.summary, 'cached');

    const res = await correct(app.g, story.storyId);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.kind, 'CORRECTION');
    assert.equal(res.body.version, 2);

    const detail = await app.g.client.get<Json>(`/v1/stories/${story.storyId}`);
    assert.equal(detail.body.summary, 'The port authority voted to add two evening ferry crossings, not three.');
    assert.equal(detail.body.version, 2);
    const versions = await app.g.client.get<Json>(`/v1/stories/${story.storyId}/versions`);
    assert.equal(versions.body.versions[1].createdBy, 'h_admin');
    assert.deepEqual(
      versions.body.versions.map((v: Json) => v.notices.map((n: Json) => [n.kind, n.note])),
      [[], [['CORRECTION', 'The crossing count was wrong: two, not three.']]],
      'readers see the correction note on the version it made',
    );
    const ledger = await app.g.client.get<Json>('/v1/ledger/events');
    const event = ledger.body.events.find((e: Json) => e.id === res.body.ledgerEventId);
    assert.equal(event.type, 'CORRECTION');
    assert.equal(event.storyId, story.storyId);

    assert.equal(await w.step(), true);
    assert.equal(receiver.requests.length, 1);
    const got = receiver.requests[0]!;
    assert.equal(got.signatureValid, true, 'the receiver verifies the signature with its own code');
    assert.equal(got.id, res.body.webhookEventId);
    assert.equal(got.headers['x-svc-webhook-timestamp'], got.body.occurredAt);
    assert.match(String(got.headers['content-type']), /^application\/json/);
    assert.deepEqual(Object.keys(got.body), ['id', 'type', 'occurredAt', 'data']);
    assert.equal(got.body.type, 'story.correction');
    assert.deepEqual(got.body.data, {
      storyId: story.storyId,
      ledgerEventId: res.body.ledgerEventId,
      title: detail.body.title,
      reason: 'The crossing count was wrong: two, not three.',
      version: 2,
      packetHash: detail.body.packetHash,
      url: `${app.g.t.config.publicBaseUrl}/v1/stories/${story.storyId}`,
    });
    const [delivery] = (await deliveries(app.g)).filter((d) => d.event_id === got.id);
    assert.equal(delivery!.status, 'DELIVERED');
    assert.equal(await w.step(), false, 'nothing left: delivered once');
  });

  test('a retraction: RETRACTED on every read, RETRACTION on the ledger, story.retraction delivered signed', async () => {
    const story = await app.news.publishedStory();
    await app.g.client.get(`/v1/stories/${story.storyId}`);
    const res = await retract(app.g, story.storyId);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.reviewStatus, 'RETRACTED');
    const detail = await app.g.client.get<Json>(`/v1/stories/${story.storyId}`);
    assert.equal(detail.body.reviewStatus, 'RETRACTED');
    assert.equal(detail.body.state, 'UNDER_REVIEW');
    const versions = await app.g.client.get<Json>(`/v1/stories/${story.storyId}/versions`);
    assert.deepEqual(
      versions.body.versions[0].notices.map((n: Json) => [n.kind, n.note]),
      [['RETRACTION', 'The minutes were forged.']],
    );
    const consensus = await app.g.client.get<Json>(`/v1/stories/${story.storyId}/consensus`);
    assert.equal(consensus.body.snapshot.reviewStatus, 'RETRACTED');
    const ledger = await app.g.client.get<Json>('/v1/ledger/events', { filters: 'under-review' });
    assert.equal(ledger.body.events.find((e: Json) => e.id === res.body.ledgerEventId)?.type, 'RETRACTION');

    const again = await retract(app.g, story.storyId);
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'STORY_RETRACTED');
    const correction = await correct(app.g, story.storyId);
    assert.equal(correction.body.code, 'STORY_RETRACTED');

    const before = receiver.requests.length;
    assert.equal(await w.step(), true);
    const got = receiver.requests[before]!;
    assert.equal(got.signatureValid, true);
    assert.equal(got.body.type, 'story.retraction');
    assert.equal((got.body.data as Json).reason, 'The minutes were forged.');
    assert.equal((got.body.data as Json).ledgerEventId, res.body.ledgerEventId);
  });

  test('only verified content admins correct; candidates, unknown stories and empty changes are refused', async () => {
    const story = await app.news.publishedStory();
    const reader = await app.g.post<Json>('reader', `/v1/admin/stories/${story.storyId}/retraction`, { reason: 'x' });
    assert.equal(reader.status, 403);
    assert.equal(reader.body.code, 'CONTENT_ADMIN_REQUIRED');
    const unverified = await app.g.post<Json>('admin', `/v1/admin/stories/${story.storyId}/retraction`, { reason: 'x', verified: false });
    assert.equal(unverified.body.code, 'VERIFIED_ACTOR_REQUIRED');
    assert.equal((await retract(app.g, 'st_missing')).status, 404);
    const candidate = await app.news.submit(await app.news.joinBot());
    const early = await retract(app.g, candidate.storyId);
    assert.equal(early.status, 409);
    assert.equal(early.body.code, 'STORY_NOT_PUBLISHED');
    const empty = await app.g.post<Json>('admin', `/v1/admin/stories/${story.storyId}/correction`, { changes: {}, note: 'x' });
    assert.equal(empty.status, 400);
    const extra = await app.g.post<Json>('admin', `/v1/admin/stories/${story.storyId}/retraction`, { reason: 'x', webhook: false });
    assert.equal(extra.status, 400);
    // refused writes leave no outbox rows behind
    const rows = await deliveries(app.g);
    assert.ok(rows.every((d) => d.status === 'DELIVERED'));
  });
});

describe('delivery: retries, Retry-After, 410, redirects, maximum age', () => {
  let receiver: Receiver;
  let app: Awaited<ReturnType<typeof webhookApp>>;
  let w: ReturnType<typeof stepWorker>;
  before(async () => {
    receiver = await startReceiver(cert, WEBHOOK_SECRET);
    app = await webhookApp([receiver.url]);
    w = stepWorker(app.g, cert.cert);
  });
  after(async () => {
    await w.close();
    await app.g.t.close();
    await receiver.close();
  });

  test('a receiver down for the first attempts gets the event exactly once, with the same id on every retry', async () => {
    receiver.requests.length = 0;
    receiver.plan('reset', 503, 500);
    const story = await app.news.publishedStory();
    const res = await correct(app.g, story.storyId);
    for (let i = 0; i < 4; i++) assert.equal(await w.step(), true);
    assert.equal(await w.step(), false);
    assert.deepEqual(
      receiver.requests.map((r) => r.id),
      Array(4).fill(res.body.webhookEventId),
    );
    assert.ok(
      receiver.requests.every((r) => r.signatureValid && r.raw === receiver.requests[0]!.raw),
      'the same signed bytes',
    );
    assert.equal(receiver.delivered().length, 1);
    const [delivery] = await deliveries(app.g);
    const log = await attempts(app.g, delivery!.id);
    assert.deepEqual(
      log.map((a) => [a.attempt, a.outcome, a.status_code]),
      [
        [1, 'RETRY', null],
        [2, 'RETRY', 503],
        [3, 'RETRY', 500],
        [4, 'DELIVERED', 200],
      ],
    );
    // exponential: with jitter fixed at 0.5 the waits are 0.75 × 1 s, 2 s, 4 s
    const waits = log.slice(1).map((a, i) => a.started_at.getTime() - log[i]!.started_at.getTime());
    assert.deepEqual(waits, [750, 1500, 3000]);
  });

  test('Retry-After is honoured when it asks for longer than the backoff', async () => {
    receiver.plan({ status: 429, headers: { 'retry-after': '120' } });
    const story = await app.news.publishedStory();
    await correct(app.g, story.storyId);
    assert.equal(await w.step(), true);
    const pending = (await deliveries(app.g)).find((d) => d.status === 'PENDING')!;
    assert.equal(pending.last_status_code, 429);
    assert.ok(pending.next_attempt_at.getTime() - pending.last_attempt_at!.getTime() >= 120_000, 'waits the 120 s asked for');
    assert.equal(await w.step(), true);
    assert.equal((await deliveries(app.g)).find((d) => d.id === pending.id)!.status, 'DELIVERED');
  });

  test('a redirect is not followed: it counts as a failure and the target is never called', async () => {
    const elsewhere = await startReceiver(cert, WEBHOOK_SECRET);
    try {
      receiver.plan({ status: 307, headers: { location: elsewhere.url } });
      const story = await app.news.publishedStory();
      await correct(app.g, story.storyId);
      assert.equal(await w.step(), true);
      const pending = (await deliveries(app.g)).find((d) => d.status === 'PENDING')!;
      assert.equal(pending.last_error, 'redirect 307 not followed');
      assert.equal(elsewhere.requests.length, 0);
      assert.equal(await w.step(), true);
    } finally {
      await elsewhere.close();
    }
  });

  test('a delivery past the maximum age is dead, and operators see the counts in /metrics', async () => {
    receiver.fallback = 503;
    try {
      const story = await app.news.publishedStory();
      await correct(app.g, story.storyId);
      const short = stepWorker(app.g, cert.cert, { maxAgeMs: 5_000 });
      try {
        while (await short.step());
      } finally {
        await short.close();
      }
      const dead = (await deliveries(app.g)).find((d) => d.status === 'DEAD')!;
      assert.match(dead.last_error!, /maximum age/);
      assert.ok(dead.attempts >= 2, 'it was retried before it died');
      const metrics = await metricsText(app.g);
      assert.match(metrics, /webhook_deliveries\{state="dead"\} 1/);
      assert.match(metrics, /webhook_deliveries\{state="delivered"\} \d+/);
    } finally {
      receiver.fallback = 200;
    }
  });

  test('410 Gone marks the delivery dead and disables the endpoint for later events', async () => {
    receiver.plan(410);
    const story = await app.news.publishedStory();
    await correct(app.g, story.storyId);
    assert.equal(await w.step(), true);
    const rows = await deliveries(app.g);
    const gone = rows[rows.length - 1]!;
    assert.equal(gone.status, 'DEAD');
    assert.equal(gone.last_status_code, 410);
    const disabled = await app.g.t.db.database.db.selectFrom('webhook_disabled_endpoints').selectAll().execute();
    assert.deepEqual(
      disabled.map((d) => d.endpoint),
      [receiver.url],
    );
    const later = await retract(app.g, story.storyId);
    assert.equal(later.status, 202);
    assert.equal((await deliveries(app.g)).length, rows.length, 'no delivery to a disabled endpoint');
    const event = await app.g.t.db.database.db
      .selectFrom('webhook_events')
      .select('id')
      .where('id', '=', later.body.webhookEventId)
      .executeTakeFirst();
    assert.ok(event, 'the event itself is still recorded');
  });
});
