import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from '@sinclair/typebox';
import { loadConfig } from '../../src/config.js';
import { HumanActorBody } from '../../src/platform/schemas.js';
import { manualClock } from '../../src/platform/clock.js';
import { createMemoryRateLimitStore, type RateLimitStore } from '../../src/platform/rate-limit-store.js';
import { createServiceCalls } from '../../src/web/site/calls.js';
import { createDemoTestApp } from '../helpers/app.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';

/**
 * A page's write in process meets what the API would have met before its service: a body longer than
 * HTTP_BODY_LIMIT_BYTES is refused (413) before the write budget counts it, and a body the route's schema
 * refuses comes back with the details the API's error body names.
 */

const Body = Type.Object({ ...HumanActorBody, text: Type.String({ maxLength: 5000 }) }, { additionalProperties: false });
const person = { actorId: 'acct_calls', verified: false };

function callsWith(env: Record<string, string>) {
  const store = createMemoryRateLimitStore(manualClock(Date.now()));
  let hits = 0;
  const counting: RateLimitStore = {
    driver: store.driver,
    hit: (key, windowMs) => {
      hits += 1;
      return store.hit(key, windowMs);
    },
  };
  const calls = createServiceCalls({ config: loadConfig(env), rateLimitStore: counting, findBoundTier: async () => null });
  return { calls, hits: () => hits };
}

test('a body over HTTP_BODY_LIMIT_BYTES is 413 PAYLOAD_TOO_LARGE: the service is not called, the budget not counted', async () => {
  const { calls, hits } = callsWith({ HTTP_BODY_LIMIT_BYTES: '1024' });
  let called = 0;
  const write = (text: string) =>
    calls.write(person, async (_actor, body) => (called += 1) && body.text.length, { body: { schema: Body, value: { text } } });

  const over = await write('x'.repeat(1100));
  assert.deepEqual(over, { ok: false, status: 413, failure: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large' } });
  assert.deepEqual([called, hits()], [0, 0]);

  // the limit is the body's bytes as the API would read them (JSON, UTF-8), the person's fields included
  const under = await write('x'.repeat(900));
  assert.deepEqual([under.ok, under.status, called, hits()], [true, 202, 1, 1]);
  const wide = await write('é'.repeat(500));
  assert.equal(wide.ok ? null : wide.failure.code, 'PAYLOAD_TOO_LARGE');
});

test("a body the route's schema refuses comes back as 400 VALIDATION_FAILED with the API's details", async () => {
  const { calls } = callsWith({});
  const refused = await calls.write(person, async () => 'written', { body: { schema: Body, value: { text: 'y'.repeat(5001) } } });
  assert.equal(refused.ok, false);
  if (refused.ok) return;
  assert.equal(refused.status, 400);
  assert.equal(refused.failure.code, 'VALIDATION_FAILED');
  assert.deepEqual(
    refused.failure.details?.map((d) => d.path),
    ['/text'],
  );
});

test('without HUMAN_SIGNING_SECRET a person logs in and comments through the site; the API still refuses signed writes (503)', async () => {
  const t = await createDemoTestApp({
    HUMAN_SIGNING_SECRET: '',
    HUMAN_PROOF_VERIFIER: 'dev',
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
  });
  try {
    const id = [...(await t.app.inject('/?lang=en&mode=recent')).body.matchAll(/href="\/stories\/(st_[A-Za-z0-9_-]+)\?/g)][0]![1]!;
    const login = await t.app.inject('/login?lang=en');
    assert.match(login.body, /action="\/login\/dev"/, 'the login form is offered');
    const reader = siteBrowser(t.app);
    await reader.devLogin('nosecret');
    await reader.chooseName('Nosecret');
    const posted = await reader.submit(`/stories/${id}?lang=en`, `/stories/${id}/comment`, { body: 'Written without a signing secret.' });
    assert.equal(flashOf(posted.page.body), 'Your comment is posted.');
    assert.match(posted.page.body, /Written without a signing secret\./);

    const api = await t.app.inject({
      method: 'POST',
      url: `/v1/stories/${id}/comments`,
      payload: { actorId: 'acct_x', verified: false, body: 'x' },
    });
    assert.equal(api.statusCode, 503);
    assert.equal(api.json().code, 'SIGNING_SECRET_UNAVAILABLE');
  } finally {
    await t.close();
  }
});
