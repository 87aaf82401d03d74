import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fuzzRuns } from '../helpers/fuzz.js';
import type { Json } from '../helpers/json.js';

/**
 * Bodies built to make the JSON body parser slow, sent before any credential is checked: a long run of zeros inside
 * a number (a trailing-zero regular expression once backtracked over it: 40,000 zeros held the process 5 s), long
 * digit strings and exponents, deep nesting (V8's JSON.parse takes seconds over a megabyte of `[[[[`), and strings
 * full of escapes. Each is answered as a plain body of its size is, and the time grows with the size, not its square.
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

/** The fastest of a few runs (ms): the least disturbed by whatever else the machine does. */
async function fastest(payload: string, runs = 5): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    const res = await post(payload);
    best = Math.min(best, performance.now() - started);
    assert.ok(res.statusCode < 500, `${res.statusCode} ${res.body.slice(0, 200)}`);
  }
  return best;
}

describe('hostile JSON bodies', () => {
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

  test('each hostile body costs about what a plain body of its size does, at one size and at eight times it', async () => {
    // A plain body (one long string) costs what its size costs; a hostile one within 10 times of it at both sizes
    // grows as its size does. The old scanner's square made it a thousand times dearer at 256 KB, and minutes.
    const plain = (n: number) => `{"actorId":"reader-1","verified":false,"n":"${'a'.repeat(n)}"}`;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(SHAPES)), async (shape) => {
        const make = SHAPES[shape]!;
        for (const size of [32 * 1024, 256 * 1024]) {
          await fastest(make(size), 2); // warm the route and V8's code for this shape and size
          // a floor of 1 ms: below it a request's own overhead and the machine's noise decide the ratio, not the body
          const usual = Math.max(await fastest(plain(size)), 1);
          const hostile = await fastest(make(size));
          assert.ok(hostile / usual < 10, `${shape}: ${hostile.toFixed(2)} ms, a plain body ${usual.toFixed(2)} ms, at ${size} characters`);
        }
      }),
      { numRuns: fuzzRuns(Object.keys(SHAPES).length * 3, Object.keys(SHAPES).length) },
    );
  });
});
