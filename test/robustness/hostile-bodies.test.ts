import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import type { Json } from '../helpers/json.js';

/**
 * Bodies built to make the JSON body parser slow, sent before any credential is checked: a long run of zeros inside
 * a number (a trailing-zero regular expression once backtracked over it: 40,000 zeros held the process 5 s), long
 * digit strings and exponents, deep nesting (V8's JSON.parse takes seconds over a megabyte of `[[[[`), and strings
 * full of escapes. Each is refused as a plain body of its size is; what they cost is the bench's to measure.
 */

let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(async () => {
  await t.close();
});

/** An unauthenticated route that parses its JSON body (the first step of a World ID login). */
const URL = '/v1/session/worldid/challenge';

const post = (payload: string) => t.app.inject({ method: 'POST', url: URL, headers: { 'content-type': 'application/json' }, payload });

/** A body of about `size` characters in one of the shapes that once cost more than their size. */
const SHAPES: Record<string, (size: number) => string> = {
  'zeros inside a number': (n) => `{"actorId":"reader-1","verified":false,"n":1.${'0'.repeat(n)}1}`,
  'zeros after an exponent': (n) => `{"actorId":"reader-1","verified":false,"n":1e${'0'.repeat(n)}5}`,
  'a long integer': (n) => `{"actorId":"reader-1","verified":false,"n":${'9'.repeat(n)}}`,
  'many long numbers': (n) =>
    `{"actorId":"reader-1","verified":false,"n":[${Array(Math.floor(n / 40))
      .fill('1.0000000000000000000000000000000000001')
      .join(',')}]}`,
  'deep arrays': (n) => `{"actorId":"reader-1","verified":false,"n":${'['.repeat(n / 2)}${']'.repeat(n / 2)}}`,
  'deep objects': (n) => `{"actorId":"reader-1","verified":false,"n":${'{"a":'.repeat(n / 6)}1${'}'.repeat(n / 6)}}`,
  'escapes in a string': (n) => `{"actorId":"reader-1","verified":false,"n":"${'\\"\\\\'.repeat(n / 4)}"}`,
};

describe('hostile JSON bodies', () => {
  // What each shape costs against a plain body of its size is measured by the bench (bench/scenarios/hostile-body.ts,
  // docs/performance.md), never timed here.
  test('each shape, at one size and at eight times it, is a 4xx with the error body, never a 5xx', async () => {
    for (const [shape, make] of Object.entries(SHAPES))
      for (const size of [32 * 1024, 256 * 1024]) {
        const res = await post(make(size));
        assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${shape} at ${size}: ${res.statusCode}`);
        assert.equal(typeof (JSON.parse(res.body) as Json).code, 'string');
      }
  });

  test('the reported body (40,000 zeros inside a number) is answered as a 4xx at once', async () => {
    const res = await post(SHAPES['zeros inside a number']!(40_000));
    assert.ok(res.statusCode >= 400 && res.statusCode < 500, res.body);
    // /healthz is not held up behind it
    assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
  });

  test('nesting deeper than 64 levels is refused from the text, before it is parsed', async () => {
    for (const shape of ['deep arrays', 'deep objects']) {
      const res = await post(SHAPES[shape]!(800_000));
      assert.equal(res.statusCode, 400, shape);
      const body = JSON.parse(res.body) as Json;
      assert.equal(body.code, 'VALIDATION_FAILED');
      assert.equal(body.details[0].path, '/');
    }
  });

  test('a key written with an escape is refused from the text, so no body changes how the next one is read', async () => {
    // V8 (Node.js 24) reads `{"h":1,"\\"":2}`'s second key as a backslash once the process has parsed a key "\\\\"
    const poison = await post(String.raw`{"h":[],"\\":0}`);
    assert.equal(poison.statusCode, 400);
    for (const payload of [String.raw`{"h":1,"\"":2}`, String.raw`{"\u0061ctorId":"reader-1","verified":false}`]) {
      const res = await post(payload);
      assert.equal(res.statusCode, 400, payload);
      const body = JSON.parse(res.body) as Json;
      assert.equal(body.code, 'VALIDATION_FAILED');
      assert.deepEqual(body.details, [{ path: '/', message: 'object keys must be written without escape sequences' }]);
    }
    // escapes in values are read as ever
    const plain = await post(String.raw`{"actorId":"reader-\"1\"","verified":false}`);
    assert.notEqual(JSON.parse(plain.body).message, 'object keys must be written without escape sequences');
    assert.ok(plain.statusCode < 500);
  });
});
