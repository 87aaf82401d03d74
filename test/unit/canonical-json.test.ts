import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { canonicalJson, queryObject } from '../../sdk/canonical-json.js';
import { canonicalQuery, canonicalize } from '../../src/platform/canonical-json.js';

/**
 * The SDK (clients) and the server canonicalize independently; a signature only verifies when both produce
 * the same bytes. These properties pin the canonical JSON of docs/api-conventions.md, "Human signed requests":
 * keys sorted at every depth, no whitespace, undefined
 * members omitted, arrays in order.
 */

const RUNS = { numRuns: 300 };

/** Sets an own property, also for the key "__proto__" (plain assignment would change the prototype). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The JSON data model of `value`: undefined members dropped, undefined array items null, -0 as 0. */
function jsonModel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : jsonModel(v)));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) put(out, key, jsonModel(v));
    }
    return out;
  }
  return Object.is(value, -0) ? 0 : value;
}

/** A deterministic pseudo-random permutation source (so that fast-check can replay a failure). */
function rng(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** The same value with the keys of every object inserted in another (random) order. */
function reorderKeys(value: unknown, random: () => number): unknown {
  if (Array.isArray(value)) return value.map((v) => reorderKeys(v, random));
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [keys[i], keys[j]] = [keys[j]!, keys[i]!];
    }
    const out: Record<string, unknown> = {};
    for (const key of keys) put(out, key, reorderKeys((value as Record<string, unknown>)[key], random));
    return out;
  }
  return value;
}

/** Characters outside JSON string literals. */
function outsideStrings(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else out += c;
  }
  return out;
}

/** Every object's keys, in the order they appear in the parsed output, must already be sorted. */
function assertSortedDeep(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(assertSortedDeep);
  if (value !== null && typeof value === 'object') {
    // JSON.parse lists integer-like keys first whatever the text says; their order has its own vector test.
    const keys = Object.keys(value).filter((k) => !/^(0|[1-9]\d*)$/.test(k));
    const codePoints = (k: string) => Array.from(k, (c) => c.codePointAt(0)!);
    const byCodePoint = (a: string, b: string) => {
      const [x, y] = [codePoints(a), codePoints(b)];
      for (let i = 0; i < Math.min(x.length, y.length); i += 1) if (x[i] !== y[i]) return x[i]! - y[i]!;
      return x.length - y.length;
    };
    assert.deepEqual(keys, [...keys].sort(byCodePoint));
    for (const key of Object.keys(value)) assertSortedDeep((value as Record<string, unknown>)[key]);
  }
}

const anyJson = fc.jsonValue({ stringUnit: 'binary', maxDepth: 5 });
const asciiJson = fc.jsonValue({ maxDepth: 5 });

/** JSON-ish values whose objects may hold undefined members (what a client may hand to the SDK). */
const withUndefined = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.string({ unit: 'binary' }),
    ),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string({ unit: 'binary' }), fc.option(tie('value'), { nil: undefined, freq: 3 }), { maxKeys: 6 }),
  ),
})).value;

describe('canonical JSON: SDK and server agree', () => {
  test('for arbitrary JSON values (full unicode strings)', () => {
    fc.assert(
      fc.property(anyJson, (value) => {
        assert.equal(canonicalJson(value), canonicalize(value));
      }),
      RUNS,
    );
  });

  test('for arbitrary JSON values (ascii strings, where dangerous keys such as __proto__ are likely)', () => {
    fc.assert(
      fc.property(asciiJson, (value) => {
        assert.equal(canonicalJson(value), canonicalize(value));
      }),
      RUNS,
    );
  });

  test('for objects with undefined members, which both omit', () => {
    fc.assert(
      fc.property(withUndefined, (value) => {
        const sdk = canonicalJson(value);
        assert.equal(sdk, canonicalize(value));
        assert.equal(sdk.includes('undefined'), false);
      }),
      RUNS,
    );
  });
});

describe('canonical JSON: properties of the output', () => {
  test('parses back to the input (without undefined members)', () => {
    fc.assert(
      fc.property(fc.oneof(anyJson, withUndefined), (value) => {
        const model = jsonModel(value);
        assert.deepStrictEqual(JSON.parse(canonicalJson(value)), model);
        assert.deepStrictEqual(JSON.parse(canonicalize(value)), model);
      }),
      RUNS,
    );
  });

  test('the key order of the input never changes the output', () => {
    fc.assert(
      fc.property(fc.oneof(anyJson, withUndefined), fc.integer(), (value, seed) => {
        const reordered = reorderKeys(value, rng(seed));
        assert.equal(canonicalJson(reordered), canonicalJson(value));
        assert.equal(canonicalize(reordered), canonicalize(value));
      }),
      RUNS,
    );
  });

  test('keys are sorted at every depth and there is no whitespace outside strings', () => {
    fc.assert(
      fc.property(fc.oneof(anyJson, withUndefined), (value) => {
        for (const out of [canonicalJson(value), canonicalize(value)]) {
          assert.doesNotMatch(outsideStrings(out), /\s/);
          assertSortedDeep(JSON.parse(out));
        }
      }),
      RUNS,
    );
  });

  test('is idempotent: canonicalizing the parsed output gives the same string', () => {
    fc.assert(
      fc.property(anyJson, (value) => {
        const once = canonicalize(value);
        assert.equal(canonicalize(JSON.parse(once)), once);
        assert.equal(canonicalJson(JSON.parse(once)), once);
      }),
      RUNS,
    );
  });
});

describe('canonical JSON: vectors', () => {
  const both = (value: unknown) => {
    const sdk = canonicalJson(value);
    assert.equal(canonicalize(value), sdk, 'server and SDK agree');
    return sdk;
  };

  test('nested keys are sorted at every depth', () => {
    assert.equal(
      both({ b: 1, a: { z: true, y: { d: null, c: 'x' } }, c: [{ b: 2, a: 1 }] }),
      '{"a":{"y":{"c":"x","d":null},"z":true},"b":1,"c":[{"a":1,"b":2}]}',
    );
  });

  test('arrays keep their order; undefined items become null, undefined members are dropped', () => {
    assert.equal(both([3, 1, 2, 'b', 'a']), '[3,1,2,"b","a"]');
    assert.equal(both({ a: undefined, b: [undefined, 1], c: { d: undefined } }), '{"b":[null,1],"c":{}}');
  });

  test('scalars, empty containers and top-level undefined', () => {
    assert.equal(both({}), '{}');
    assert.equal(both([]), '[]');
    assert.equal(both(null), 'null');
    assert.equal(both(undefined), 'null');
    assert.equal(both('a"b\\c\n'), '"a\\"b\\\\c\\n"');
    assert.equal(both(-0), '0');
    assert.equal(both(1e21), '1e+21');
    assert.equal(both(0.1), '0.1');
    assert.equal(both({ t: true, f: false }), '{"f":false,"t":true}');
  });

  test('unicode keys are sorted by code point, not by UTF-16 code unit', () => {
    // U+1F600 is the surrogate pair D83D DE00: code-unit order would put it before U+FB01, code point order after.
    const value = { '\uFB01': 6, '\u{1F600}': 5, é: 4, z: 3, a: 2, Z: 1, '': 0 };
    assert.equal(both(value), '{"":0,"Z":1,"a":2,"z":3,"é":4,"ﬁ":6,"😀":5}');
    // Upper case before lower case, and "a" before "aa" before "b".
    assert.equal(both({ b: 1, aa: 2, a: 3, B: 4 }), '{"B":4,"a":3,"aa":2,"b":1}');
  });

  test('integer-like keys are sorted as strings too (JavaScript lists them first in its own key order)', () => {
    assert.equal(both({ b: 1, 10: 2, 9: 3, '': 4, '01': 5 }), '{"":4,"01":5,"10":2,"9":3,"b":1}');
    assert.equal(both([{ 1: 'x', a: { 2: 'y', 0: 'z', b: 'w' } }]), '[{"1":"x","a":{"0":"z","2":"y","b":"w"}}]');
  });

  test('dangerous keys are ordinary members', () => {
    const value = JSON.parse('{"__proto__":{"x":1},"constructor":"c","toString":2}') as unknown;
    assert.equal(both(value), '{"__proto__":{"x":1},"constructor":"c","toString":2}');
  });
});

describe('canonical query form', () => {
  /** The expected fold of ordered pairs: one value as a string, a repeated key as an array in order. */
  function fold(pairs: [string, string][]): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const [key, value] of pairs) {
      const prev = Object.hasOwn(out, key) ? out[key] : undefined;
      put(out, key, prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value]);
    }
    return out;
  }
  /** Lone surrogates cannot be percent-encoded: URLSearchParams sends them as U+FFFD. */
  const wellFormed = (s: string) => Buffer.from(s, 'utf8').toString('utf8');
  const plain = (o: Record<string, string | string[]>) => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(o)) put(out, key, o[key]);
    return out;
  };

  const smallKey = fc.constantFrom('a', 'b', 'actorId', 'verified', 'tag', 'x y', 'é', '&', '=', '__proto__', 'constructor', 'toString');
  const pairs = fc.array(fc.tuple(fc.oneof(smallKey, fc.string({ unit: 'binary' })), fc.string({ unit: 'binary' })), { maxLength: 12 });

  test('SDK queryObject and server canonicalQuery agree, and repeated keys become arrays in order', () => {
    fc.assert(
      fc.property(pairs, (list) => {
        const params = new URLSearchParams();
        for (const [k, v] of list) params.append(k, v);
        const raw = params.toString();
        const server = canonicalQuery(raw);
        const sdk = queryObject(raw);
        const expected = fold(list.map(([k, v]) => [wellFormed(k), wellFormed(v)]));
        assert.deepStrictEqual(plain(server), expected);
        assert.deepStrictEqual(plain(sdk), expected);
        assert.deepStrictEqual(plain(queryObject(`?${raw}`)), expected);
        assert.deepStrictEqual(plain(queryObject(params)), expected);
        assert.equal(canonicalJson(sdk), canonicalize(server));
      }),
      RUNS,
    );
  });

  test('SDK and server agree on arbitrary raw query strings (percent escapes, +, empty parts)', () => {
    const raw = fc.string({ unit: fc.constantFrom('a', 'b', '=', '&', '%', '2', '0', 'B', '+', ';', 'é', '?'), maxLength: 40 });
    fc.assert(
      fc.property(raw, (text) => {
        // the SDK takes a search string with or without "?"; the server gets the raw query after it
        assert.equal(canonicalJson(queryObject(text)), canonicalize(canonicalQuery(text.startsWith('?') ? text.slice(1) : text)));
      }),
      RUNS,
    );
  });

  test('vectors', () => {
    const raw = 'tag=b&actorId=u1&tag=a&verified=true&tag=c&empty=&sp=x+y%20z';
    const expected = '{"actorId":"u1","empty":"","sp":"x y z","tag":["b","a","c"],"verified":"true"}';
    assert.equal(canonicalize(canonicalQuery(raw)), expected);
    assert.equal(canonicalJson(queryObject(raw)), expected);
    assert.deepStrictEqual(plain(canonicalQuery('a=1&a=2')), { a: ['1', '2'] });
    assert.deepStrictEqual(queryObject('a=1&a=2'), { a: ['1', '2'] });
    assert.equal(canonicalize(canonicalQuery('')), '{}');
    assert.equal(canonicalJson(queryObject('')), '{}');
    // integer-like keys sort as strings; keys named like Object.prototype members are plain members
    assert.equal(canonicalize(canonicalQuery('b=1&10=2&9=3')), '{"10":"2","9":"3","b":"1"}');
    assert.equal(canonicalJson(queryObject('b=1&10=2&9=3')), '{"10":"2","9":"3","b":"1"}');
    const dangerous = 'constructor=x&toString=y&toString=z&__proto__=p';
    const dangerousExpected = '{"__proto__":"p","constructor":"x","toString":["y","z"]}';
    assert.equal(canonicalize(canonicalQuery(dangerous)), dangerousExpected);
    assert.equal(canonicalJson(queryObject(dangerous)), dangerousExpected);
    assert.equal(Object.getPrototypeOf(queryObject(dangerous)), Object.prototype);
  });
});
