import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { governanceApp, type GovernanceApp } from '../governance/support.js';
import { TEST_SECRET, type TestApp } from '../helpers/app.js';
import type { Json } from '../helpers/json.js';

/**
 * A known path asked with a method it does not have is 405 with the methods it has in `Allow` (an unknown path
 * stays 404; HEAD, OPTIONS and the CORS preflight keep working), and a path parameter is served up to the length
 * its schema allows; a longer one is 400 VALIDATION_FAILED naming it, whatever its length (414 only for a URL over
 * HTTP_MAX_URL_BYTES).
 */
describe('405 Method Not Allowed and path parameter lengths', () => {
  let g: GovernanceApp;
  let t: TestApp;

  before(async () => {
    g = await governanceApp({ API_ORIGIN: 'https://reader.example.org' });
    t = g.t;
  });
  after(() => t.close());

  const send = (method: string, url: string, headers: Record<string, string> = {}) => fetch(`${t.baseUrl}${url}`, { method, headers });

  test('a foreign method on a known path is 405 METHOD_NOT_ALLOWED with Allow, never 404 or 500', async () => {
    for (const [method, url, allow] of [
      ['POST', '/v1/feed', 'GET, HEAD, OPTIONS'],
      ['DELETE', '/v1/stories/st_unknown0000000000', 'GET, HEAD, OPTIONS'],
      ['PUT', '/v1/stories/st_x/comments', 'GET, HEAD, OPTIONS, POST'],
      ['PATCH', '/v1/users/me/bookmarks/st_x', 'DELETE, OPTIONS'],
      ['GET', '/v1/candidates', 'OPTIONS, POST'],
    ] as const) {
      const res = await send(method, url);
      const body = (await res.json()) as Json;
      assert.equal(res.status, 405, `${method} ${url}: ${JSON.stringify(body)}`);
      assert.equal(res.headers.get('allow'), allow, `${method} ${url}`);
      assert.equal(body.code, 'METHOD_NOT_ALLOWED');
      assert.equal(body.requestId, res.headers.get('x-request-id'));
    }
  });

  test('an unknown path is still 404; HEAD, OPTIONS preflight and the routes themselves still answer', async () => {
    const unknown = await send('POST', '/v1/no-such-thing');
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as Json).code, 'NOT_FOUND');
    assert.equal((await send('HEAD', '/v1/feed')).status, 200);
    assert.equal((await send('GET', '/v1/feed')).status, 200);
    const preflight = await send('OPTIONS', '/v1/stories/st_x/comments', {
      origin: 'https://reader.example.org',
      'access-control-request-method': 'POST',
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://reader.example.org');
  });

  test('a 240-character host and a 300-character topic are served; a parameter over its maxLength is 400 naming it', async () => {
    const host = `${['a', 'b', 'c', 'd'].map((c) => c.repeat(59)).join('.')}.org`;
    assert.equal(host.length, 243);
    const rated = await g.post<Json>('admin', `/v1/admin/sources/${host}/status`, {
      status: 'WATCH',
      reason: 'a long host is a host too',
    });
    assert.equal(rated.status, 202, JSON.stringify(rated.body));
    assert.equal(rated.body.id, host);

    const topic = 't'.repeat(300);
    const removed = await g.client.humanWrite<Json>(
      TEST_SECRET,
      `/v1/users/me/topics/${topic}`,
      { actorId: 'reader-1', verified: false },
      'DELETE',
    );
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal(removed.body.removed, false);

    for (const length of [401, 2000]) {
      const over = await g.client.humanWrite<Json>(
        TEST_SECRET,
        `/v1/users/me/topics/${'t'.repeat(length)}`,
        { actorId: 'reader-1', verified: false },
        'DELETE',
      );
      assert.equal(over.status, 400, `${length}: ${JSON.stringify(over.body)}`);
      assert.equal(over.body.code, 'VALIDATION_FAILED');
      assert.deepEqual(
        (over.body.details as Json[]).map((d) => d.path),
        ['/params/topic'],
      );
      const story = await send('GET', `/v1/stories/${'s'.repeat(length)}`);
      assert.equal(story.status, 400);
      assert.deepEqual(((await story.json()) as Json).details, [{ path: '/params/id', message: 'must NOT have more than 64 characters' }]);
    }
    const target = await send('GET', `/v1/stories/${'s'.repeat(9000)}`);
    assert.equal(target.status, 414);
    assert.equal(((await target.json()) as Json).code, 'URI_TOO_LONG');
  });
});
