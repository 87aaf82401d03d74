import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { canonicalJson } from '../../sdk/canonical-json.js';
import { canonicalize } from '../../src/platform/canonical-json.js';
import {
  doubleWritesBack,
  inexactNumbers,
  MAX_BODY_DEPTH,
  refuseJsonText,
  UnreadableNumberError,
  type InexactNumbers,
} from '../../src/platform/json-body.js';

/**
 * The digits of body numbers (src/platform/json-body.ts): which numbers a double does not write back, where
 * they are in the body (by JSON pointer, as JSON.parse reads the same text), and that the server's canonical
 * JSON of such a body is the SDK's canonical JSON of the value it was sent from.
 */

const RUNS = { numRuns: 300 };

/** A number token of the JSON grammar with `significant` digits (first and last non-zero), placed anywhere. */
const numberToken = (significant: fc.Arbitrary<number>) =>
  fc
    .record({
      negative: fc.boolean(),
      digits: significant.chain((n) =>
        fc
          .tuple(fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n - 1, maxLength: n - 1 }))
          .map(([first, rest]) => {
            const ds = [first, ...rest];
            if (ds.length > 1 && ds[ds.length - 1] === 0) ds[ds.length - 1] = 7;
            return ds.join('');
          }),
      ),
      point: fc.nat({ max: 40 }),
      exponent: fc.option(fc.integer({ min: -30, max: 30 }), { nil: undefined }),
    })
    .map(({ negative, digits, point, exponent }) => {
      // a point after `point` digits, padding with zeros on the left when needed: 0.000ddd or ddd.ddd or ddd
      const at = Math.min(point, digits.length);
      const whole = digits.slice(0, digits.length - at) || '0';
      const fraction = digits.slice(digits.length - at);
      return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}${exponent === undefined ? '' : `e${exponent}`}`;
    });

describe('doubleWritesBack', () => {
  test('examples', () => {
    for (const text of [
      '0',
      '-0',
      '1',
      '1.50',
      '1000.0000000000000000000',
      '1e3',
      '1E+3',
      '100e-2',
      '0.1',
      '1e21',
      '5e-324',
      '0e99999999999999999999',
    ])
      assert.equal(doubleWritesBack(text), true, text);
    for (const text of [
      '1000.000000000000000007',
      '12345678901234567890',
      '12345678901234567890.123456789',
      '0.10000000000000001',
      '1e400',
      '-1e400',
      '1e-400',
      '9007199254740993',
      '1180591620717411303424',
    ])
      assert.equal(doubleWritesBack(text), false, text);
  });

  test('what JavaScript writes for any double is written back; up to 15 significant digits always are', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (d) => doubleWritesBack(JSON.stringify(d))),
      RUNS,
    );
    fc.assert(
      fc.property(numberToken(fc.integer({ min: 1, max: 15 })), (t) => doubleWritesBack(t)),
      RUNS,
    );
  });

  test('more than 17 significant digits never are (a double writes at most 17)', () => {
    fc.assert(
      fc.property(numberToken(fc.integer({ min: 18, max: 40 })), (t) => !doubleWritesBack(t)),
      RUNS,
    );
  });
});

/** A JSON document written by hand: numbers as tokens, objects as key/value lists (keys may repeat). */
type Doc = { num: string } | { str: string } | { lit: string } | { arr: Doc[] } | { obj: [string, Doc][] };

/** Keys as the API writes them; `"` and `\\` need an escape, refused from the text before anything parses it. */
const plainKeys = ['a', 'b', '', 'a/b', '~1', 'é', '0', 'x y'];
const escapingKeys = ['"', '\\'];
const leaf: fc.Arbitrary<Doc> = fc.oneof(
  numberToken(fc.integer({ min: 1, max: 30 })).map((num) => ({ num })),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => ({ num: JSON.stringify(d) })),
  fc.constantFrom('1e400', '-1e-400', '9007199254740993').map((num) => ({ num })),
  fc.string({ maxLength: 6 }).map((str) => ({ str })),
  fc.constantFrom('true', 'false', 'null').map((lit) => ({ lit })),
);
const docOf = (key: fc.Arbitrary<string>) =>
  fc.letrec<{ doc: Doc }>((tie) => ({
    doc: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.array(tie('doc'), { maxLength: 4 }).map((arr) => ({ arr })),
      fc.array(fc.tuple(key, tie('doc')), { maxLength: 4 }).map((obj) => ({ obj })),
    ),
  })).doc;
/** Documents the body parser reads; and any document, escaped keys included. */
const doc = docOf(fc.constantFrom(...plainKeys));
const anyDoc = docOf(fc.constantFrom(...plainKeys, ...escapingKeys));

function write(d: Doc, space: string): string {
  if ('num' in d) return d.num;
  if ('str' in d) return JSON.stringify(d.str);
  if ('lit' in d) return d.lit;
  if ('arr' in d) return `[${space}${d.arr.map((x) => write(x, space)).join(`${space},${space}`)}${space}]`;
  return `{${space}${d.obj.map(([k, v]) => `${JSON.stringify(k)}${space}:${space}${write(v, space)}`).join(`,${space}`)}${space}}`;
}

/** Whether a key of the document is written with an escape (JSON.stringify escapes `"`, `\\` and control characters). */
const hasEscapedKey = (d: Doc): boolean =>
  ('arr' in d && d.arr.some(hasEscapedKey)) || ('obj' in d && d.obj.some(([k, v]) => JSON.stringify(k) !== `"${k}"` || hasEscapedKey(v)));

/** How deep the text nests arrays and objects (a repeated key's earlier values included: JSON.parse reads them too). */
const textDepth = (d: Doc): number =>
  'arr' in d ? 1 + Math.max(0, ...d.arr.map(textDepth)) : 'obj' in d ? 1 + Math.max(0, ...d.obj.map(([, v]) => textDepth(v))) : 0;

const segment = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** The numbers JSON.parse keeps (the last of repeated keys) that their double does not write back, by pointer. */
function expected(d: Doc, pointer: string, out: Map<string, string>): Map<string, string> {
  if ('num' in d && !doubleWritesBack(d.num)) out.set(pointer, d.num);
  if ('arr' in d) d.arr.forEach((x, i) => expected(x, `${pointer}/${i}`, out));
  if ('obj' in d) for (const [k, v] of new Map(d.obj)) expected(v, `${pointer}/${segment(k)}`, out);
  return out;
}

/** The tree of inexact numbers as JSON pointer → source text. */
function flatten(tree: InexactNumbers | null, pointer = '', out = new Map<string, string>()): Map<string, string> {
  for (const [k, v] of tree ?? []) {
    if (typeof v === 'string') out.set(`${pointer}/${segment(k)}`, v);
    else flatten(v, `${pointer}/${segment(k)}`, out);
  }
  return out;
}

function at(value: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], value);
}

describe('inexactNumbers', () => {
  test('finds exactly the numbers JSON.parse rounds, where JSON.parse puts them (repeated keys: the last wins)', () => {
    fc.assert(
      fc.property(doc, fc.constantFrom('', ' ', '\n\t'), (d, space) => {
        const text = write(d, space);
        const parsed = JSON.parse(text) as unknown;
        let tree: InexactNumbers | null;
        try {
          tree = inexactNumbers(text);
        } catch (err) {
          // V8 may lose a number's source text under a key written with an escape: refused, never misread
          assert.ok(err instanceof UnreadableNumberError && hasEscapedKey(d), `${String(err)} in ${text}`);
          return;
        }
        const found = flatten(tree);
        // a top-level number is no member of anything (a signed body is an object)
        assert.deepEqual(found, 'num' in d ? new Map() : expected(d, '', new Map()));
        for (const [pointer, source] of found) assert.equal(at(parsed, pointer), Number(source));
      }),
      RUNS,
    );
  });

  test('a body without a long number is not looked at; a number as deep as a body may nest is found', () => {
    assert.equal(inexactNumbers('{"totalPoolOrbs":1000.5,"note":"12"}'), null);
    const deep = `${'['.repeat(MAX_BODY_DEPTH)}1000.000000000000000007${']'.repeat(MAX_BODY_DEPTH)}`;
    let node: InexactNumbers | string | undefined = inexactNumbers(deep) ?? undefined;
    for (let depth = 1; depth < MAX_BODY_DEPTH; depth += 1) node = typeof node === 'object' && node.size === 1 ? node.get('0') : undefined;
    assert.deepEqual(node, new Map([['0', '1000.000000000000000007']]));
  });

  test('a number under an escaped key is read exactly or refused, never read as its double', () => {
    // a similar object parsed first is what makes V8 (Node.js 24) omit the source text of such a member
    JSON.parse('{"a/b":{},"\\\\":1}');
    for (const text of ['{"a/b":{},"\\u0074otalPoolOrbs":1000.000000000000000001}', '{"a/b":{},"\\"":{"t":1000.000000000000000001}}']) {
      let tree: InexactNumbers | null;
      try {
        tree = inexactNumbers(text);
      } catch (err) {
        assert.ok(err instanceof UnreadableNumberError, String(err));
        continue;
      }
      assert.deepEqual([...flatten(tree).values()], ['1000.000000000000000001'], text);
    }
  });
});

describe('refuseJsonText', () => {
  test('counts the brackets JSON.parse nests, not those inside strings; finds keys written with an escape', () => {
    fc.assert(
      fc.property(anyDoc, fc.nat({ max: 8 }), (d, max) => {
        const refusal = refuseJsonText(write(d, ''), max);
        if (!hasEscapedKey(d)) assert.equal(refusal, textDepth(d) > max ? 'too-deep' : null);
        else assert.equal(refusal, textDepth(d) > max ? refusal : 'escaped-key');
        if (refusal === 'too-deep') assert.ok(textDepth(d) > max);
      }),
      RUNS,
    );
    assert.equal(refuseJsonText(String.raw`{"a":"[[[[\\\"[[[","b":[1]}`, 2), null);
    assert.equal(refuseJsonText(`{"a":${'['.repeat(64)}${']'.repeat(64)}}`, 64), 'too-deep');
  });

  test('a value written with escapes is no key, whatever follows it; a key is one before its colon', () => {
    for (const text of [String.raw`{"a":"x\":1"}`, String.raw`["\"",":"]`, String.raw`{"a":["\n" , 1]}`, String.raw`{"a b":"\\"}`])
      assert.equal(refuseJsonText(text, 8), null, text);
    for (const text of [String.raw`{"\"":1}`, String.raw`{"a":{"\u0074" :1}}`, `{"\\\\"\n\t:1}`, String.raw`[{"x\/y":2}]`])
      assert.equal(refuseJsonText(text, 8), 'escaped-key', text);
  });
});

const plainKey = fc.string({ maxLength: 4 }).filter((k) => JSON.stringify(k) === `"${k}"`);

describe('canonical JSON of a body with long numbers', () => {
  test('the server canonicalizes the text the SDK sends as the SDK canonicalized the value it signed', () => {
    const value = fc.oneof(
      fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }),
      fc.constantFrom(10n ** 21n, 2n ** 70n, 2n ** 53n + 1n, 10n ** 400n),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(
        // keys as the API writes them: none needs an escape (a key written with one is refused before parsing)
        fc.dictionary(plainKey, fc.oneof(value, fc.array(value, { maxLength: 3 })), { maxKeys: 5 }),
        (body) => {
          const sent = canonicalJson(body);
          assert.equal(canonicalize(JSON.parse(sent), inexactNumbers(sent)), sent);
        },
      ),
      RUNS,
    );
  });

  test('a number is signed with its digits, not with the double they round to', () => {
    const text = '{"totalPoolOrbs": 1000.000000000000000001 , "n":[1, 2.50]}';
    assert.equal(canonicalize(JSON.parse(text), inexactNumbers(text)), '{"n":[1,2.5],"totalPoolOrbs":1000.000000000000000001}');
    assert.equal(canonicalize(JSON.parse(text)), '{"n":[1,2.5],"totalPoolOrbs":1000}');
  });
});
