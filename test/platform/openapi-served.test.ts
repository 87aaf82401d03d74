import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { chooseEncoding, matchesEtag } from '../../src/platform/openapi/served-document.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** `/openapi.json` is sent compressed when the client accepts it, with an ETag, and 304 to a client that has it. */
describe('GET /openapi.json: compressed, with an ETag, 304 when unchanged', () => {
  let t: TestApp;
  let plain: Buffer;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const get = (headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/openapi.json', headers });

  test('without Accept-Encoding: the JSON itself, with a weak ETag and Vary', async () => {
    const res = await get();
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], undefined);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.match(String(res.headers.etag), /^W\/"[A-Za-z0-9_-]{27}"$/);
    assert.equal(res.headers.vary, 'accept-encoding');
    plain = res.rawPayload;
    assert.equal(JSON.parse(plain.toString('utf8')).openapi, '3.1.0');
  });

  test('brotli or gzip as the client prefers, the same bytes once decoded, far smaller', async () => {
    const br = await get({ 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.ok(brotliDecompressSync(br.rawPayload).equals(plain));
    assert.ok(br.rawPayload.length * 5 < plain.length, `${br.rawPayload.length} of ${plain.length} bytes`);
    const gzip = await get({ 'accept-encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.ok(gunzipSync(gzip.rawPayload).equals(plain));
    assert.equal(gzip.headers.etag, br.headers.etag);
    assert.equal((await get({ 'accept-encoding': 'br;q=0, gzip;q=0.5' })).headers['content-encoding'], 'gzip');
    assert.equal((await get({ 'accept-encoding': 'identity' })).headers['content-encoding'], undefined);
  });

  test('If-None-Match with its ETag is 304 without a body; another ETag is 200', async () => {
    const etag = String((await get()).headers.etag);
    for (const ifNoneMatch of [etag, etag.slice(2), `"other", ${etag}`, '*']) {
      const res = await get({ 'if-none-match': ifNoneMatch, 'accept-encoding': 'br' });
      assert.equal(res.statusCode, 304, ifNoneMatch);
      assert.equal(res.rawPayload.length, 0);
      assert.equal(res.headers.etag, etag);
      assert.ok(res.headers['x-request-id']);
    }
    assert.equal((await get({ 'if-none-match': '"other"' })).statusCode, 200);
  });

  test('Accept-Encoding and If-None-Match are read as RFC 9110 says', () => {
    assert.equal(chooseEncoding(undefined), undefined);
    assert.equal(chooseEncoding('*'), 'br');
    assert.equal(chooseEncoding('*;q=0.1, gzip'), 'gzip');
    assert.equal(chooseEncoding('BR;Q=0.2, gzip;q=0.1'), 'br');
    assert.equal(chooseEncoding('br;q=0, gzip;q=0'), undefined);
    assert.equal(chooseEncoding('deflate'), undefined);
    assert.equal(matchesEtag('W/"a"', '"a"'), true);
    assert.equal(matchesEtag('"b"', 'W/"a"'), false);
  });
});
