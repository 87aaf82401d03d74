import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestCertificate, startReceiver, type TestCertificate } from '../helpers/https-receiver.js';
import { correct, deliveries, fakeDns, stepWorker, webhookApp, WEBHOOK_SECRET } from './support.js';

let cert: TestCertificate;
before(() => {
  cert = createTestCertificate();
});
after(() => cert.cleanup());

describe('a receiver that never answers does not hold up the others', () => {
  test('the other endpoint is delivered while the first request still hangs', async () => {
    const slow = await startReceiver(cert, WEBHOOK_SECRET, '/slow');
    const fast = await startReceiver(cert, WEBHOOK_SECRET, '/fast');
    slow.fallback = 'hang';
    const app = await webhookApp([slow.url, fast.url]);
    const w = stepWorker(app.g, cert.cert, { concurrency: 2, pollMs: 20, timeoutMs: 5_000 });
    try {
      const story = await app.news.publishedStory();
      await correct(app.g, story.storyId);
      w.clock.set(Date.now()); // both deliveries due (the worker's clock does not move by itself)
      w.worker.start();
      await fast.waitForRequests(1);
      await slow.waitForRequests(1);
      assert.equal(fast.delivered().length, 1);
      assert.equal(slow.pending(), 1, 'the slow receiver has not answered yet');
    } finally {
      await slow.close();
      await w.worker.stop();
      await w.close();
      await app.g.t.close();
      await fast.close();
    }
  });
});

describe('SSRF: only public addresses, checked on the address connected to', () => {
  test('hosts resolving to 127.0.0.1 or 169.254.169.254, and IPv4-mapped literals, are refused without the test-only setting', async () => {
    const receiver = await startReceiver(cert, WEBHOOK_SECRET);
    const endpoints = [receiver.url, 'https://metadata.test/latest/hook', `https://[::ffff:127.0.0.1]:${receiver.port}/hook`];
    const app = await webhookApp(endpoints);
    const dns = fakeDns({ 'metadata.test': '169.254.169.254' });
    const strict = stepWorker(app.g, cert.cert, { allowPrivateAddresses: false }, dns);
    try {
      const story = await app.news.publishedStory();
      await correct(app.g, story.storyId);
      while (await strict.step());
      const rows = await deliveries(app.g);
      assert.deepEqual(
        rows.map((d) => d.status),
        ['DEAD', 'DEAD', 'DEAD'],
      );
      for (const d of rows) assert.match(d.last_error!, /not a public address/);
      assert.equal(receiver.requests.length, 0, 'nothing reached the receiver');

      // the control: the same receiver is reached once WEBHOOK_ALLOW_PRIVATE_ADDRESSES=1 allows loopback
      const control = await webhookApp([receiver.url]);
      const open = stepWorker(control.g, cert.cert, { allowPrivateAddresses: true }, dns);
      try {
        await correct(control.g, (await control.news.publishedStory()).storyId);
        assert.equal(await open.step(), true);
        assert.equal(receiver.delivered().length, 1);
      } finally {
        await open.close();
        await control.g.t.close();
      }
    } finally {
      await strict.close();
      await app.g.t.close();
      await receiver.close();
    }
  });
});
