import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createServiceClient } from '../../sdk/index.js';
import { createDemoTestApp, TEST_SECRET, TEST_API_KEY } from '../helpers/app.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';

/**
 * A reader's writes through the site count against the same per-actor budget as the API's human writes
 * (RATE_LIMIT_HUMAN_WRITES_PER_MINUTE, policy "human-writes"): one counter, whichever way the write comes, so the
 * site is no way around the API's limit.
 */

const storyIds = (body: string) => [...new Set([...body.matchAll(/href="\/stories\/(st_[A-Za-z0-9_-]+)\?/g)].map((m) => m[1]!))];

test("a reader's comments through the site and the API share the human write budget; past it the site says when to retry", async () => {
  const t = await createDemoTestApp({
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
    RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '6',
    HUMAN_PROOF_VERIFIER: 'dev',
  });
  try {
    const id = storyIds((await t.app.inject('/?lang=en&mode=recent')).body)[0]!;
    const story = `/stories/${id}?lang=en`;
    const alice = siteBrowser(t.app);
    await alice.devLogin('alice');
    await alice.chooseName('Alice');
    const actorId = alice.get('/me/export?lang=en').then((r) => (r.json() as { actorId: string }).actorId);

    // the login's two writes (challenge, verify) and the name were the new account's, and so is one through the API (signed by
    // another front end)...
    const client = createServiceClient({ baseUrl: await t.listen(), apiKey: TEST_API_KEY });
    for (let i = 1; i <= 1; i++) {
      const res = await client.humanWrite(TEST_SECRET, `/v1/stories/${id}/comments`, {
        actorId: await actorId,
        verified: false,
        body: `API ${i}`,
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
    }
    // ...leave two to the site
    for (const body of ['Through the site.', 'Again through the site.']) {
      const posted = await alice.submit(story, `/stories/${id}/comment`, { body });
      assert.equal(flashOf(posted.page.body), 'Your comment is posted.');
    }
    const fourth = await alice.submit(story, `/stories/${id}/comment`, { body: 'One too many.' });
    assert.match(String(flashOf(fourth.page.body)), /^Too many requests: try again in \d+ seconds\.$/);
    assert.doesNotMatch(fourth.page.body, /One too many\./, 'nothing is written past the limit');

    // the API refuses the same person too, with the same policy
    const api = await client.humanWrite(TEST_SECRET, `/v1/stories/${id}/comments`, {
      actorId: await actorId,
      verified: false,
      body: 'API 3',
    });
    assert.equal(api.status, 429);
    assert.match(String(api.headers.get('ratelimit')), /^"human-writes";r=0;t=\d+$/);

    // another reader has a budget of their own
    const bob = siteBrowser(t.app);
    await bob.devLogin('bob');
    await bob.chooseName('Bob');
    const theirs = await bob.submit(story, `/stories/${id}/comment`, { body: 'Bob was here.' });
    assert.equal(flashOf(theirs.page.body), 'Your comment is posted.');
  } finally {
    await t.close();
  }
});
