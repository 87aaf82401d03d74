import assert from 'node:assert/strict';
import { request as httpRequest, Agent as HttpAgent } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { botIdFromPublicKey, generateAgentKey, signAgentRequest, signHumanRequest, toQueryString, type AgentKey } from '../../sdk/index.js';
import { createTestApp, TEST_API_KEY, TEST_OPS_TOKEN, TEST_SECRET, type TestApp } from '../helpers/app.js';
import { fuzzRuns } from '../helpers/fuzz.js';
import type { Json } from '../helpers/json.js';

/**
 * Robustness: no input makes the service answer 5xx, and every 4xx is the error body
 * ({ error, requestId, code? } with `x-request-id` equal to `requestId`).
 *
 * The routes come from the app's own OpenAPI document, so a new route is fuzzed without touching this file:
 * path and query parameters, bodies and credentials are generated from each route's schemas and security.
 * Five properties:
 *   1. raw fuzz of every route through app.inject: junk path parameters, query strings, bodies of every shape,
 *      content types and credential headers;
 *   2. raw path parameters over a real socket (app.inject normalises `..`, `%2e%2e` and non-ASCII away);
 *   3. validly signed agent writes (SDK signAgentRequest with joined and registry bots) with schema-shaped,
 *      mutated and random bodies, so the fuzz reaches validation and the services; with an idempotency key
 *      some are retried (signed again) to replay the stored answer;
 *   4. validly signed human writes and reads (SDK signHumanRequest), and the API-key, operations-token and
 *      public routes with valid credentials and schema-shaped parameters;
 *   5. revision proposals built from a story's own packets (no change, a revert, duplicate claims or sources,
 *      random fields) and then voted on to acceptance: state the random fuzz rarely reaches.
 * Identifiers seen in any answer (stories, packet hashes, claims, proposals, comments, cursors) are fed back
 * into the generators, so later requests act on real rows. Each 5xx or contract break the properties found
 * has a focused regression test at the end of the file.
 */

// ---------------------------------------------------------------------------------------------------------
// Budget: `npm test` runs a smoke tenth of each property (about a minute on PGlite with the rest of the file);
// `npm run test:fuzz` the full counts below (test/helpers/fuzz.ts). Knobs for a local hunt (all off by
// default): FUZZ_RUNS_SCALE=10 multiplies every numRuns; FUZZ_SEED=<seed> replays a reported seed (the pools
// of real ids grow while the properties run, so a replay is close but not always exact; replay with the same
// tier); FUZZ_STATS=1 prints, per property and route, how many answers had each status and code.
const RUNS = {
  raw: fuzzRuns(900),
  socket: fuzzRuns(300),
  agent: fuzzRuns(600),
  credentialed: fuzzRuns(700),
  revisions: fuzzRuns(60, 10),
};
const SEED = process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {};

// ---------------------------------------------------------------------------------------------------------
// Pools of real identifiers, filled by the seed and by every answer.

type PoolName =
  | 'storyId'
  | 'publishedStoryId'
  | 'pair'
  | 'hash'
  | 'claimId'
  | 'proposalId'
  | 'commentId'
  | 'cursor'
  | 'actorId'
  | 'linkedHumanId'
  | 'idempotencyKey';

const POOL_MAX = 400;
const pools: Record<PoolName, string[]> = {
  storyId: ['st_unknown0000000000'],
  /** stories seen PROVISIONAL or GRADUATED */
  publishedStoryId: ['st_unknown0000000000'],
  /** `storyId packetHash` seen together in one answer */
  pair: [`st_unknown0000000000 ${'0'.repeat(64)}`],
  hash: ['0'.repeat(64)],
  claimId: ['cl_unknown'],
  proposalId: ['rev_unknown'],
  commentId: ['cm_unknown'],
  cursor: ['W10.AAAAAAAAAAAAAAAA', 'eyJ4IjoxfQ.0123456789abcdef'],
  actorId: ['reader-1', 'reader-2', 'reader-3', 'admin', 'a'],
  linkedHumanId: ['human-l3', 'human-l2', 'human-unknown'],
  idempotencyKey: ['idem-key-0001', 'idem-key-0002', 'idem-key-0003'],
};
const poolSeen: Record<PoolName, Set<string>> = Object.fromEntries(Object.entries(pools).map(([k, v]) => [k, new Set(v)])) as Record<
  PoolName,
  Set<string>
>;
let poolCounter = 0;

function remember(pool: PoolName, value: string) {
  if (poolSeen[pool].has(value)) return;
  poolSeen[pool].add(value);
  const list = pools[pool];
  if (list.length < POOL_MAX) list.push(value);
  else list[(poolCounter += 7) % POOL_MAX] = value;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Collects identifiers from an answer body so later runs use real rows. */
function harvest(value: unknown, key = '', depth = 0): void {
  if (depth > 12 || value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, 50)) harvest(item, key === 'claims' ? 'claim' : key === 'claimIds' ? 'claimId' : key, depth + 1);
    return;
  }
  if (typeof value === 'object') {
    const record = value as Json;
    if (key === 'claim' && typeof record.id === 'string') remember('claimId', record.id);
    const storyId =
      typeof record.storyId === 'string'
        ? record.storyId
        : typeof record.id === 'string' && record.id.startsWith('st_')
          ? record.id
          : undefined;
    const hash = [record.packetHash, record.currentPacketHash, record.hash].find((h) => typeof h === 'string' && HEX64.test(h)) as
      string | undefined;
    if (storyId && hash) remember('pair', `${storyId} ${hash}`);
    if (storyId && (record.publicationStage === 'PROVISIONAL' || record.publicationStage === 'GRADUATED'))
      remember('publishedStoryId', storyId);
    for (const [k, v] of Object.entries(record)) harvest(v, k, depth + 1);
    return;
  }
  if (typeof value !== 'string') return;
  if (key === 'nextCursor') remember('cursor', value);
  else if (key === 'claimId') remember('claimId', value);
  else if (HEX64.test(value)) remember('hash', value);
  else if (value.startsWith('st_')) remember('storyId', value);
  else if (value.startsWith('rev_') || value.startsWith('rp_')) remember('proposalId', value);
  else if (value.startsWith('cm_')) remember('commentId', value);
  else if (value.startsWith('cl_')) remember('claimId', value);
}

/** A value picked from a pool when the request is sent (the pools grow while the properties run). */
class Pick {
  constructor(
    readonly pool: PoolName | 'pairStory' | 'pairHash' | 'signerBotId' | 'signerPublicKey' | 'signerVerified',
    readonly index: number,
  ) {}
  [fc.toStringMethod]() {
    return `pick(${this.pool}#${this.index})`;
  }
}

interface Signer {
  key: AgentKey;
  keyVersion?: number;
  /** registry bots are verified by the operator */
  verified?: boolean;
}

function resolve(value: unknown, signer?: Signer): unknown {
  if (value instanceof Pick) {
    if (value.pool === 'signerBotId') return signer?.key.botId ?? `bot_${'0'.repeat(32)}`;
    if (value.pool === 'signerPublicKey') return signer?.key.publicKey ?? 'A'.repeat(43);
    if (value.pool === 'signerVerified') return signer ? signer.verified === true : true;
    if (value.pool === 'pairStory' || value.pool === 'pairHash') {
      const [storyId, hash] = pools.pair[value.index % pools.pair.length]!.split(' ');
      return value.pool === 'pairStory' ? storyId : hash;
    }
    const list = pools[value.pool];
    return list[value.index % list.length];
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, signer));
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const key of Object.keys(value)) define(out, key, resolve((value as Json)[key], signer));
    return out;
  }
  return value;
}

/** Sets an own property even for `__proto__`, so that JSON.stringify writes it as a key. */
function define(target: object, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function objectFrom(entries: [string, unknown][]): Json {
  const out = {};
  for (const [k, v] of entries) define(out, k, v);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Generic arbitraries: strings, JSON values, bodies, query strings, headers.

/** Percent-encodes like encodeURIComponent, but a lone surrogate becomes U+FFFD instead of throwing. */
function pct(s: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-_.!~*'()]/.test(String.fromCharCode(b)) && b < 0x80
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** What Node's HTTP client sends as is: U+0021-U+00FF; anything else is percent-encoded. */
function socketSafe(url: string): string {
  return url.replace(/[^\u0021-\u00ff]/gu, (c) => pct(c));
}

const SPECIAL_CHARS = [
  '\u0000',
  '\ud800',
  '\udfff',
  '\u202e',
  '\ufeff',
  '\u2028',
  '\u0085',
  '\u00a0',
  '"',
  '\\',
  '\n',
  '\r',
  '\t',
  "'",
  '%',
  '<',
  '>',
  '&',
  '/',
  '😀',
  '👨‍👩‍👧',
  'é',
  'ß',
  '中',
  '\u0301',
  'İ',
  '\u007f',
  '\u0001',
];
const charUnit = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...'abcdefxyzABCXYZ0123456789 -_.'.split('')) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom(...SPECIAL_CHARS) },
);
const weirdString = (maxLength = 24, minLength = 0) => fc.string({ unit: charUnit, minLength, maxLength });

/** Strings of about 200 KB (the body limit is 1 MiB). */
const hugeString = fc
  .tuple(fc.constantFrom('a', 'é', '\u0000', '😀', '"', '\\', ' ', '\ud800'), fc.integer({ min: 150_000, max: 220_000 }))
  .map(([c, n]) => c.repeat(Math.ceil(n / c.length)));

const numericText = fc.constantFrom(
  '0',
  '-0',
  '1',
  '-1',
  '1.5',
  '1e3',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '9007199254740993',
  '99999999999999999999999999999',
  '00012',
  ' 1',
  '1 ',
  '',
  'true',
  'null',
);

const SPECIAL_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '',
  ' ',
  'botId',
  'verified',
  'storyId',
  'packetHash',
  'actorId',
  'body',
  'a'.repeat(300),
  '\u0000',
  '$ref',
  'then',
];
const jsonKey = fc.oneof({ weight: 4, arbitrary: weirdString(12) }, { weight: 2, arbitrary: fc.constantFrom(...SPECIAL_KEYS) });

const jsonLeaf = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-0, 1e308, -1e308, 5e-324, 2 ** 53 + 2, -(2 ** 63), 0.1),
  weirdString(),
  numericText,
);

const { value: jsonValue } = fc.letrec<{ value: unknown; array: unknown[]; object: Json }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, jsonLeaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.array(fc.tuple(jsonKey, tie('value')), { maxLength: 4 }).map(objectFrom),
}));

/** A value nested up to ~25 levels in arrays and objects. */
const deeplyNested = fc
  .tuple(fc.array(fc.tuple(fc.boolean(), jsonKey), { minLength: 1, maxLength: 25 }), jsonLeaf)
  .map(([levels, leaf]) => {
    let v: unknown = leaf;
    for (const [asArray, key] of levels) v = asArray ? [v] : objectFrom([[key, v]]);
    return v;
  });

/**
 * A body nested 65 to 150 000 levels deep under a key, after the fields that get a request past the header
 * checks to the signature (a joined bot's botId and publicKey, human actor fields).
 */
const veryDeepBody = fc.tuple(fc.integer({ min: 65, max: 150_000 }), fc.boolean()).map(([n, asArrays]) => {
  const bot = bots[0]?.key;
  const prefix = `{"botId":"${bot?.botId ?? ''}","publicKey":"${bot?.publicKey ?? ''}","actorId":"reader-1","verified":false,"x":`;
  return asArrays ? `${prefix}${'['.repeat(n)}${']'.repeat(n)}}` : `${prefix}${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`;
});

/** A value nested 65 to 400 levels (deep enough to be refused, shallow enough for the SDK to sign it). */
const deepValue = fc.integer({ min: 65, max: 400 }).map((n) => {
  let v: unknown = 1;
  for (let i = 0; i < n; i += 1) v = i % 2 ? [v] : { a: v };
  return v;
});

const MALFORMED_JSON = [
  '{',
  '}',
  '[',
  '{"a":}',
  '{"a":1,}',
  '[1,]',
  "{'a':1}",
  '{a:1}',
  'NaN',
  'Infinity',
  'undefined',
  'nul',
  'tru',
  '"',
  '"\\u00"',
  '"\\x41"',
  '{"a":1}{"b":2}',
  '{"a":1} trailing',
  '// comment\n{}',
  '{"a":1 /* c */}',
  '\ufeff{}',
  '{"a":"\u0000"}',
  '{"a":"\\u0000"}',
  '{"a":"\\ud800"}',
  '{"a":1e999999}',
  '{"a":-}',
  '{"a":01}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":{"__proto__":{"x":1}}}',
  ' ',
  '\n',
  '\u0000',
  '[]',
  '""',
  '0',
  '-0',
  'null',
  'true',
  '1e400',
];

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=UTF-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json;charset=',
  'APPLICATION/JSON',
  'application/json, text/plain',
  'application/vnd.api+json',
  'application/problem+json',
  'text/json',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  '*/*',
  'json',
  '',
  ';',
  'application/json; boundary=',
];

interface BodyCase {
  payload: string | undefined;
  contentType: string | undefined;
}

/** Bodies of every shape, each with a content type (mostly JSON). */
function bodyArb(schemaValue: fc.Arbitrary<unknown> | undefined): fc.Arbitrary<BodyCase> {
  const text = fc.oneof(
    { weight: 3, arbitrary: jsonValue.map((v) => JSON.stringify(v) ?? 'null') },
    ...(schemaValue ? [{ weight: 4, arbitrary: schemaValue.map((v) => JSON.stringify(resolve(v, bots[0])) ?? 'null') }] : []),
    { weight: 1, arbitrary: deeplyNested.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: veryDeepBody },
    { weight: 1, arbitrary: fc.tuple(jsonKey, hugeString).map(([k, s]) => JSON.stringify(objectFrom([[k, s]]))) },
    { weight: 1, arbitrary: fc.constantFrom(...MALFORMED_JSON) },
    {
      weight: 1,
      arbitrary: fc.tuple(jsonValue, fc.nat()).map(([v, n]) => {
        const s = JSON.stringify(v) ?? 'null';
        return s.slice(0, n % (s.length + 1));
      }),
    },
    { weight: 1, arbitrary: weirdString(64) },
  );
  const contentType = fc.oneof(
    { weight: 6, arbitrary: fc.constant('application/json') },
    { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  return fc.oneof(
    { weight: 8, arbitrary: fc.record({ payload: text, contentType }) },
    { weight: 2, arbitrary: fc.record({ payload: fc.constant(undefined), contentType }) },
    { weight: 1, arbitrary: fc.record({ payload: fc.constant(''), contentType }) },
    // over the 1 MiB limit: 413, never 500
    {
      weight: 1,
      arbitrary: fc.constant<BodyCase>({ payload: JSON.stringify({ big: 'x'.repeat(1_100_000) }), contentType: 'application/json' }),
    },
  );
}

/** A path parameter: real ids, schema-valid values, and junk (empty-ish, long, unicode, %-encoded, NUL, dots). */
function pathParamArb(schema: Json | undefined, name: string, rawSocket: boolean): fc.Arbitrary<string> {
  const valid = schema ? schemaArb(schema, name, 0).map((v) => pct(String(resolve(v)))) : fc.constant('x');
  const junk = fc.oneof(
    fc.constantFrom(
      '%00',
      'a%00b',
      '%',
      '%zz',
      '%e0%a4',
      '%ff',
      '%C0%AF',
      '%2F',
      '%2f..%2f',
      '%2e%2e',
      '%252e',
      '%20',
      '+',
      '~',
      '-',
      '_',
      '.',
      '@',
      ':',
      ';',
      ',',
      '*',
      '$',
      '!',
      "'",
      '(',
      ')',
    ),
    fc.integer({ min: 150, max: 5000 }).map((n) => 'a'.repeat(n)),
    fc.integer({ min: 1, max: 400 }).map((n) => '%41'.repeat(n)),
    weirdString(30, 1).map(pct),
    weirdString(30, 1).map((s) =>
      [...s].map((c) => (/^[A-Za-z0-9]$/.test(c) ? c : `%${(c.codePointAt(0)! & 0xff).toString(16).padStart(2, '0')}`)).join(''),
    ),
    ...(rawSocket
      ? [fc.constantFrom('..', '.', '../..', '..%2f..', '%2e%2e/%2e%2e', 'a/../b', '.%2e', 'é', 'ÿ', '\u00a0', 'a\u00ffb')]
      : [fc.constantFrom('é', '中文', '😀', '..', '.', 'a/b', 'a?b=1', 'a#b', 'a\\b')]),
  );
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 4, arbitrary: junk }, { weight: 1, arbitrary: fc.constant('') });
}

/** A query string: the route's own parameters (valid or junk), unknown and repeated keys, arrays, cursors. */
function queryArb(params: Json[]): fc.Arbitrary<string> {
  const names = params.map((p) => p.name as string);
  const key = fc.oneof(
    { weight: 5, arbitrary: names.length ? fc.constantFrom(...names) : fc.constant('limit') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'limit',
        'cursor',
        'lang',
        'q',
        'mode',
        'room',
        'filters',
        'actorId',
        'verified',
        'limit[]',
        'lang[0]',
        'a[b]',
        '__proto__',
        'constructor',
        'toString',
        '',
        '%00',
        'x'.repeat(300),
      ),
    },
    { weight: 1, arbitrary: weirdString(10).map(pct) },
  );
  const value = fc.oneof(
    fc.constantFrom(
      '1e309',
      '-1',
      '0',
      '-0',
      'NaN',
      'Infinity',
      '1.5',
      '9007199254740993',
      '9'.repeat(400),
      '0x10',
      '1e3',
      'true',
      '',
      'null',
      '[]',
      '{}',
    ),
    fc.constantFrom('en', 'es', 'fr', 'de', 'zh-Hans', 'EN', 'zh-hans', 'zh', 'xx', 'en-US', 'en,fr', '*'),
    fc.constantFrom(
      'trending',
      'graduated',
      'developing',
      'recent',
      'provisional,graduated',
      'agent-review,',
      ',',
      'PROVISIONAL',
      'CONTESTED',
    ),
    fc.nat().map((i) => pct(pools.cursor[i % pools.cursor.length]!)),
    fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(...'AZaz09-_.=+/'.split(''))).map(([i, j, c]) => {
      const cur = pools.cursor[i % pools.cursor.length]!;
      const at = cur.length ? j % cur.length : 0;
      return pct(cur.slice(0, at) + c + cur.slice(at + 1));
    }),
    fc.base64String({ maxLength: 80 }).map((s) => pct(`${s}.${s.slice(0, 16)}`)),
    fc.constantFrom(
      '%00',
      '%',
      '%zz',
      '%ff',
      '&',
      '=',
      '==',
      '+',
      '%2B',
      '"',
      "'",
      '%22%20OR%20',
      '-a',
      'a OR b',
      '"unterminated',
      '()',
      '*',
      '\\',
    ),
    fc.nat().map((i) => pct(pools.actorId[i % pools.actorId.length]!)),
    weirdString(40).map(pct),
    fc.integer({ min: 501, max: 3000 }).map((n) => 'q'.repeat(n)),
  );
  return fc
    .array(fc.tuple(key, value, fc.boolean()), { maxLength: 6 })
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v, bare]) => (bare && !v ? k : `${k}=${v}`)).join('&')}` : ''));
}

const PRINTABLE = fc.string({ unit: fc.constantFrom(...'abcxyzABC019-_=+/.:; '.split('')), maxLength: 40 });
const latin1 = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c !== 0x7f)
    .map((c) => String.fromCharCode(c)),
  maxLength: 40,
});
const headerValue = fc.oneof(
  PRINTABLE,
  latin1,
  fc.constantFrom('', ' ', '0', '-1', '1'.repeat(17), String(Date.now()), 'a'.repeat(201), 'a'.repeat(8), 'AAAA', '=', 'null'),
);

/** Credential and signature headers, real and junk. */
function headersArb(): fc.Arbitrary<Record<string, string>> {
  const entry = fc.oneof(
    fc.tuple(
      fc.constantFrom(
        'x-agent-timestamp',
        'x-agent-nonce',
        'x-agent-signature',
        'x-agent-key-version',
        'x-timestamp',
        'x-nonce',
        'x-signature',
        'idempotency-key',
        'agentproof',
        'x-request-id',
        'accept-language',
        'x-forwarded-for',
        'origin',
        'accept',
      ),
      headerValue,
    ),
    fc.tuple(fc.constant('x-agent-timestamp'), fc.constantFrom(String(Date.now()), String(Date.now() + 10 ** 9), '0', '9999999999999999')),
    fc.tuple(
      fc.constant('x-agent-signature'),
      fc.constantFrom('A'.repeat(86), 'A'.repeat(88), 'A'.repeat(85) + '=', '_'.repeat(86), 'A'.repeat(87)),
    ),
    fc.tuple(fc.constant('x-signature'), fc.constantFrom('0'.repeat(64), 'F'.repeat(64), '0'.repeat(63))),
    fc.tuple(fc.constant('x-agent-key-version'), fc.constantFrom('1', '2', '3', '0', '01', '999999', '1000000', '-1', '1.0')),
    fc.tuple(
      fc.constant('authorization'),
      fc.constantFrom(
        `Bearer ${TEST_OPS_TOKEN}`,
        `Bearer ${TEST_API_KEY}`,
        'Bearer',
        'Bearer ',
        'Basic YTpi',
        'bearer x',
        `Bearer  ${TEST_OPS_TOKEN} `,
        'Bearer \u00ff',
      ),
    ),
    fc.tuple(fc.constant('x-api-key'), fc.constantFrom(TEST_API_KEY, '', 'wrong', TEST_API_KEY + ' ', '\u00e9')),
    fc.tuple(fc.constant('x-operations-token'), fc.constantFrom(TEST_OPS_TOKEN, '', 'wrong', TEST_OPS_TOKEN.toUpperCase())),
  );
  return fc.array(entry, { maxLength: 6 }).map((entries) => Object.fromEntries(entries));
}

// ---------------------------------------------------------------------------------------------------------
// Schema-driven arbitraries (OpenAPI / JSON Schema as emitted by @fastify/swagger from TypeBox).

let components: Json = {};

function deref(schema: Json): Json {
  let s = schema;
  for (let i = 0; i < 10 && typeof s.$ref === 'string'; i += 1) {
    const name = s.$ref.split('/').pop() as string;
    s = components[name] ?? {};
  }
  return s;
}

/**
 * Property names whose values are taken from the pools of real identifiers (or from the signer) most of the
 * time: each entry is [pool, weight] against weight 1 for a value generated from the schema.
 */
const HINTS: Record<string, [Pick['pool'], number][]> = {
  storyId: [
    ['publishedStoryId', 3],
    ['storyId', 1],
  ],
  id: [
    ['publishedStoryId', 3],
    ['storyId', 1],
  ],
  packetHash: [['hash', 3]],
  hash: [['hash', 3]],
  proposalId: [['proposalId', 4]],
  parentId: [['commentId', 3]],
  claimId: [['claimId', 3]],
  cursor: [['cursor', 2]],
  actorId: [['actorId', 4]],
  linkedHumanId: [['linkedHumanId', 3]],
  botId: [['signerBotId', 12]],
  publicKey: [['signerPublicKey', 12]],
  verified: [['signerVerified', 3]],
};

const urlArb = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom(
    'https://example.org/a',
    'http://x.y',
    'https://例え.jp/パス',
    'https://example.org/%00',
    'http://[::1]:8080/x',
    'https://a.b/' + 'p'.repeat(2030),
    'https://user:pw@host.tld/x?y=1#z',
    'http://localhost',
    'https://example.org/\u0000',
  ),
);

function schemaArb(input: Json, name: string | undefined, depth: number): fc.Arbitrary<unknown> {
  const schema = deref(input);
  // `id` names a story only as a path parameter (inside bodies it is a claim's own id)
  const hints = name && !(name === 'id' && depth > 0) ? HINTS[name] : undefined;
  const base = baseArb(schema, name, depth);
  if (!hints) return base;
  return fc.oneof(...hints.map(([pool, weight]) => ({ weight, arbitrary: fc.nat().map((i) => new Pick(pool, i)) })), {
    weight: 1,
    arbitrary: base,
  });
}

function baseArb(schema: Json, name: string | undefined, depth: number): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...(schema.enum as unknown[]));
  const union = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (Array.isArray(union) && union.length) return fc.oneof(...union.map((s) => schemaArb(s, name, depth)));
  if (Array.isArray(schema.allOf) && schema.allOf.length) {
    const merged: Json = { type: 'object', properties: {}, required: [] };
    for (const part of schema.allOf as Json[]) {
      const p = deref(part);
      Object.assign(merged.properties, p.properties ?? {});
      merged.required.push(...((p.required as string[]) ?? []));
    }
    return baseArb(merged, name, depth);
  }
  if (depth > 8) return jsonLeaf;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const props = Object.entries((schema.properties ?? {}) as Json);
      if (!props.length) return fc.constant({});
      const required = new Set<string>((schema.required as string[]) ?? []);
      const object = fc
        .tuple(...props.map(([k, s]) => fc.tuple(fc.constant(k), schemaArb(s as Json, k, depth + 1), fc.nat({ max: 3 }))))
        .map((entries) => objectFrom(entries.filter(([k, , keep]) => required.has(k) || keep > 0).map(([k, v]) => [k, v])));
      const keys = props.map(([k]) => k);
      if (!keys.includes('storyId') || !keys.includes('packetHash')) return object;
      // a story and a packet hash seen together, so that reviews and proposals can match the current packet
      return fc.tuple(object, fc.nat(), fc.nat({ max: 3 })).map(([o, i, paired]) => {
        if (paired > 0) {
          define(o, 'storyId', new Pick('pairStory', i));
          define(o, 'packetHash', new Pick('pairHash', i));
        }
        return o;
      });
    }
    case 'array': {
      const items = (schema.items ?? {}) as Json;
      const itemName = name?.endsWith('s') ? name.slice(0, -1) : name;
      const max = Math.min(schema.maxItems ?? 5, 5);
      const arr = fc.array(schemaArb(items, itemName, depth + 1), { minLength: Math.min(schema.minItems ?? 0, max), maxLength: max });
      return schema.uniqueItems
        ? arr.map((xs) => xs.filter((x, i) => xs.findIndex((y) => fc.stringify(y) === fc.stringify(x)) === i))
        : arr;
    }
    case 'string':
      return stringArb(schema);
    case 'integer': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : -1_000_000;
      const max = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000;
      return fc.oneof(
        { weight: 5, arbitrary: fc.integer({ min, max }) },
        { weight: 1, arbitrary: fc.constantFrom(min - 1, max + 1, 0, -1, 2 ** 31, 2 ** 53) },
      );
    }
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : -1e6;
      const max = typeof schema.maximum === 'number' ? schema.maximum : 1e6;
      return fc.oneof(
        { weight: 5, arbitrary: fc.double({ min, max, noNaN: true }) },
        { weight: 1, arbitrary: fc.constantFrom(min, max, -0, 5e-324, 1e308) },
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return jsonValue;
  }
}

function stringArb(schema: Json): fc.Arbitrary<string> {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 200;
  if (schema.format === 'uri') return urlArb;
  if (schema.format === 'date-time')
    return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString());
  if (typeof schema.pattern === 'string') {
    return fc.stringMatching(new RegExp(schema.pattern)).map((s) => (s.length > max ? s.slice(0, max) : s));
  }
  const bounded = Math.min(max, 64);
  return fc.oneof(
    // mostly well-formed text, so that most bodies pass validation and reach the services
    { weight: 6, arbitrary: fc.string({ unit: 'grapheme', minLength: Math.min(min, bounded), maxLength: bounded }) },
    { weight: 2, arbitrary: weirdString(bounded, Math.min(min, bounded)) },
    // the longest value the schema allows, in a character that may be hard to store
    {
      weight: 1,
      arbitrary: fc.constantFrom('a', 'é', '😀', '\u0000', '\ud800', ' ').map((c) => c.repeat(Math.max(min, Math.floor(max / c.length)))),
    },
  );
}

/** Schema-valid bodies, mutated ones and random objects (weights favour reaching the services). */
function signedBodyArb(schema: Json): fc.Arbitrary<unknown> {
  const valid = schemaArb(schema, undefined, 0);
  const junk = fc.oneof({ weight: 6, arbitrary: jsonValue }, { weight: 1, arbitrary: deeplyNested }, { weight: 1, arbitrary: deepValue });
  const mutated = fc
    .tuple(valid, fc.constantFrom('drop', 'add', 'retype', 'stringify', 'proto', 'array'), jsonKey, junk, fc.nat())
    .map(([v, how, key, junk, n]) => {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
      const keys = Object.keys(v);
      const target = keys.length ? keys[n % keys.length]! : key;
      const out = objectFrom(keys.map((k) => [k, (v as Json)[k]]));
      switch (how) {
        case 'drop':
          delete out[target];
          return out;
        case 'add':
          define(out, key, junk);
          return out;
        case 'retype':
          define(out, target, junk);
          return out;
        case 'stringify':
          define(out, target, JSON.stringify(resolve(out[target])) ?? 'null');
          return out;
        case 'proto':
          define(out, '__proto__', objectFrom([[target, junk]]));
          return out;
        default:
          define(out, target, [out[target]]);
          return out;
      }
    });
  return fc.oneof({ weight: 6, arbitrary: valid }, { weight: 3, arbitrary: mutated }, { weight: 1, arbitrary: jsonValue });
}

// ---------------------------------------------------------------------------------------------------------
// Routes from the OpenAPI document.

type AuthKind = 'public' | 'api-key' | 'operations' | 'human' | 'agent' | 'agent-join';

interface Route {
  method: string;
  path: string;
  pathParams: Json[];
  queryParams: Json[];
  body: Json | undefined;
  auth: AuthKind;
}

function routesFrom(doc: Json): Route[] {
  components = doc.components?.schemas ?? {};
  const routes: Route[] = [];
  for (const [path, ops] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(ops as Json)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params = ((op.parameters ?? []) as Json[]).map((p): Json => ({ ...p, schema: deref(p.schema ?? {}) }));
      const body = op.requestBody?.content?.['application/json']?.schema as Json | undefined;
      const schemes = ((op.security ?? []) as Json[]).flatMap((s) => Object.keys(s));
      // a body with variants (the join route: a join, or a key change) is classified by its first variant
      const bodyProps = body
        ? (deref(body).properties ?? deref((deref(body).anyOf as Json[] | undefined)?.[0] ?? {}).properties ?? {})
        : {};
      let auth: AuthKind = 'public';
      // a read with an optional signed reader (`{}` among its alternatives) is a public read here
      if ((op.security ?? []).some((s: Json) => Object.keys(s).length === 0)) auth = 'public';
      else if (schemes.includes('agentSignature')) auth = 'publicKey' in bodyProps && !('botId' in bodyProps) ? 'agent-join' : 'agent';
      else if (schemes.includes('humanSignature')) auth = 'human';
      else if (schemes.includes('operationsToken')) auth = 'operations';
      else if (schemes.includes('publicApiKey')) auth = 'api-key';
      const route: Route = {
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        body: body ? deref(body) : undefined,
        auth,
      };
      // counterexamples name the route, not its schemas
      Object.defineProperty(route, fc.toStringMethod, { value: () => `${route.method} ${route.path}`, enumerable: false });
      routes.push(route);
    }
  }
  return routes;
}

function fillPath(route: Route, values: Record<string, string>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? 'x');
}

// ---------------------------------------------------------------------------------------------------------
// Sending and the contract check.

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | undefined;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function describeRequest(req: Sent): string {
  const payload =
    req.payload === undefined
      ? '(no body)'
      : req.payload.length > 400
        ? `${req.payload.slice(0, 400)}… (${req.payload.length} chars)`
        : req.payload;
  return `${req.method} ${req.url.length > 300 ? `${req.url.slice(0, 300)}…` : req.url}\nheaders: ${JSON.stringify(req.headers)}\nbody: ${JSON.stringify(payload)}`;
}

/** No 5xx; every 4xx is the error body with x-request-id equal to its requestId. */
function checkContract(req: Sent, res: Answer): void {
  const where = () => `${describeRequest(req)}\n→ ${res.status} ${res.text.slice(0, 600)}`;
  assert.ok(res.status < 500, `5xx answer\n${where()}`);
  const requestIdHeader = res.headers['x-request-id'];
  assert.equal(typeof requestIdHeader, 'string', `x-request-id header missing\n${where()}`);
  if (res.status < 400 || req.method === 'HEAD') return;
  assert.match(String(res.headers['content-type']), /^application\/json/, `4xx is not JSON\n${where()}`);
  let body: Json;
  try {
    body = JSON.parse(res.text) as Json;
  } catch {
    assert.fail(`4xx body is not JSON\n${where()}`);
  }
  assert.ok(body !== null && typeof body === 'object' && !Array.isArray(body), `4xx body is not an object\n${where()}`);
  assert.equal(typeof body.error, 'string', `4xx body has no string "error"\n${where()}`);
  assert.equal(typeof body.requestId, 'string', `4xx body has no string "requestId"\n${where()}`);
  assert.ok(body.code === undefined || typeof body.code === 'string', `4xx "code" is not a string\n${where()}`);
  assert.equal(requestIdHeader, body.requestId, `x-request-id differs from requestId\n${where()}`);
}

let t: TestApp;
let baseUrl = '';

/** FUZZ_STATS=1: answers per property, route, status and code (to tune the generators). */
const stats = new Map<string, Map<string, number>>();
let statsLabel = '';
function count(answer: Answer) {
  if (!process.env.FUZZ_STATS) return;
  let code: string;
  try {
    const body = answer.status >= 400 ? (JSON.parse(answer.text) as Json) : {};
    const detail = body.details?.[0] as Json | undefined;
    code = [body.code, detail?.path ?? detail?.header, detail && String(detail.message).slice(0, 40)].filter(Boolean).join(' ');
  } catch {
    code = '?';
  }
  const key = code ? `${answer.status}:${code}` : String(answer.status);
  const row = stats.get(statsLabel) ?? new Map<string, number>();
  row.set(key, (row.get(key) ?? 0) + 1);
  stats.set(statsLabel, row);
}
const keepAlive = new HttpAgent({ keepAlive: true, maxSockets: 4 });

async function inject(req: Sent): Promise<Answer> {
  const res = await t.app.inject({
    method: req.method as 'GET',
    url: req.url,
    headers: req.headers,
    ...(req.payload !== undefined ? { payload: req.payload } : {}),
  });
  const answer = { status: res.statusCode, headers: res.headers as Answer['headers'], text: res.payload };
  count(answer);
  if (res.statusCode < 300 && answer.text.startsWith('{')) harvest(JSON.parse(answer.text));
  checkContract(req, answer);
  return answer;
}

/** A request over a real socket, path sent byte for byte (Node only refuses characters outside U+0021-U+00FF). */
function overSocket(req: Sent): Promise<Answer> {
  return new Promise((resolveAnswer, reject) => {
    const r = httpRequest(`${baseUrl}/`, { method: req.method, path: req.url, headers: req.headers, agent: keepAlive }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolveAnswer({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    r.on('error', reject);
    if (req.payload !== undefined) r.write(req.payload);
    r.end();
  });
}

// ---------------------------------------------------------------------------------------------------------
// Bots, people and the seed.

const bots: Signer[] = [];
let registryKeys: AgentKey[] = [];

function withContentType(headers: Record<string, string>, payload: string | undefined): Record<string, string> {
  return payload === undefined ? headers : { 'content-type': 'application/json', ...headers };
}

async function agentSend(
  signer: Signer,
  method: string,
  path: string,
  body: unknown,
  extra: { idempotencyKey?: string; agentProof?: string } = {},
) {
  const headers = signAgentRequest({
    key: signer.key,
    method,
    path,
    body,
    ...(signer.keyVersion !== undefined ? { keyVersion: signer.keyVersion } : {}),
    ...extra,
  });
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return inject({ method, url: path, headers: withContentType(headers, payload), payload });
}

async function humanSend(method: string, path: string, bodyOrQuery: Json) {
  if (method === 'GET') {
    const query = bodyOrQuery as Record<string, string | string[]>;
    const headers = signHumanRequest({ secret: TEST_SECRET, method, path, query });
    return inject({ method, url: `${path}${toQueryString(query)}`, headers });
  }
  const headers = signHumanRequest({ secret: TEST_SECRET, method, path, body: bodyOrQuery });
  const payload = JSON.stringify(bodyOrQuery);
  return inject({ method, url: path, headers: withContentType(headers, payload), payload });
}

function packet(tag: string, overrides: Json = {}): Json {
  return {
    room: 'world',
    lang: 'en',
    title: `Harbour authority approves new ferry schedule ${tag}`,
    summary: 'The port authority voted to add two evening ferry crossings from next month.',
    body: 'The harbour authority approved an expanded ferry timetable on Tuesday after a public consultation.',
    claims: [{ text: 'The authority approved two extra evening crossings.' }, { id: `c-${tag}`, text: 'The change starts next month.' }],
    sources: [{ url: `https://example.org/ferry-${tag}`, title: 'Authority minutes', publisher: 'Harbour Authority' }],
    ...overrides,
  };
}

async function seed() {
  for (let i = 0; i < 3; i += 1) {
    const key = generateAgentKey();
    const res = await agentSend({ key }, 'POST', '/v1/agents/join', { publicKey: key.publicKey, name: `fuzz bot ${i}` });
    assert.equal(res.status, 202, res.text);
    bots.push({ key });
  }
  bots.push({ key: registryKeys[0]!, keyVersion: 1, verified: true }, { key: registryKeys[1]!, keyVersion: 2, verified: true });
  const [a, b] = bots as [Signer, Signer];
  const submit = async (signer: Signer, p: Json) => {
    const res = await agentSend(signer, 'POST', '/v1/candidates', { botId: signer.key.botId, verified: false, ...p });
    assert.ok(res.status === 202 || res.status === 200, res.text);
    return JSON.parse(res.text) as Json;
  };
  const publish = (hash: string) =>
    inject({ method: 'POST', url: `/v1/publish/${hash}/compute`, headers: { 'x-operations-token': TEST_OPS_TOKEN } });
  const published: Json[] = [];
  for (const [i, signer] of [a, a, b, bots[3]!].entries()) {
    const c = await submit(signer, packet(`p${i}`));
    await publish(c.hash);
    published.push(c);
  }
  await submit(b, packet('candidate')); // stays a CANDIDATE
  const blocked = await submit(a, packet('blocked', { body: 'Call him on 555-123-4567 tonight, he lives at 12 Elm Street.' }));
  await publish(blocked.hash);
  const s0 = published[0]!;
  const proposal = await agentSend(b, 'POST', '/v1/agents/revision-proposals', {
    botId: b.key.botId,
    verified: false,
    storyId: s0.storyId,
    packetHash: s0.hash,
    changes: { title: 'A clearer title for the ferry story' },
    rationale: 'clearer',
  });
  assert.equal(proposal.status, 202, proposal.text);
  const comment = await humanSend('POST', `/v1/stories/${s0.storyId}/comments`, { actorId: 'reader-1', verified: true, body: 'First!' });
  assert.equal(comment.status, 202, comment.text);
  await t.db.database.db
    .insertInto('human_identities')
    .values([
      { linked_human_id: 'human-l3', tier: 'L3', provider: 'world-id' },
      { linked_human_id: 'human-l2', tier: 'L2', provider: 'secondary' },
    ])
    .execute();
  // harvest published story ids, pairs and a first cursor of each listing
  for (const url of [
    '/v1/feed?limit=50&mode=recent',
    '/v1/feed?limit=1',
    '/v1/search?limit=1',
    '/v1/ledger/events?limit=1',
    `/v1/stories/${s0.storyId}/comments?limit=1`,
  ]) {
    await inject({ method: 'GET', url, headers: {} });
  }
}

// ---------------------------------------------------------------------------------------------------------

let routes: Route[] = [];

describe('robustness: no input makes the service answer 5xx', () => {
  before(async () => {
    registryKeys = [generateAgentKey(), generateAgentKey()];
    const registryBotId = botIdFromPublicKey(registryKeys[0]!.publicKey);
    registryKeys = registryKeys.map((k) => ({ ...k, botId: registryBotId }));
    const unlimited = '1000000000';
    t = await createTestApp({
      RATE_LIMIT_PUBLIC_READS_PER_MINUTE: unlimited,
      RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: unlimited,
      RATE_LIMIT_VERIFIED_WRITES_PER_MINUTE: unlimited,
      RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: unlimited,
      AGENT_BOT_REGISTRY: JSON.stringify([
        {
          botId: registryBotId,
          publicKeys: registryKeys.map((k, i) => ({ version: i + 1, publicKey: k.publicKey })),
          permissions: [
            'candidates:submit',
            'attestations:write',
            'objections:write',
            'revisions:propose',
            'revisions:vote',
            'agents:verify',
          ],
          verified: true,
          linkedHumanId: 'human-l3',
        },
      ]),
    });
    baseUrl = await t.listen();
    const doc = JSON.parse((await inject({ method: 'GET', url: '/openapi.json', headers: {} })).text) as Json;
    routes = routesFrom(doc);
    statsLabel = 'seed';
    await seed();
  });

  after(async () => {
    if (process.env.FUZZ_STATS) {
      for (const [label, row] of [...stats].sort())
        console.error(
          label.padEnd(70),
          [...row]
            .sort()
            .map(([status, n]) => `${status}×${n}`)
            .join(' '),
        );
    }
    keepAlive.destroy();
    await t?.close();
  });

  test('the OpenAPI document lists the routes the properties fuzz', () => {
    assert.ok(routes.length >= 30, `only ${routes.length} routes`);
    for (const kind of ['public', 'api-key', 'operations', 'human', 'agent', 'agent-join'] as AuthKind[]) {
      assert.ok(
        routes.some((r) => r.auth === kind),
        `a ${kind} route is documented`,
      );
    }
  });

  test('raw fuzz of every route: junk parameters, query strings, bodies, content types and credential headers', async () => {
    const caseArb = fc.nat().chain((i) => {
      const route = routes[i % routes.length]!;
      return fc.record({
        route: fc.constant(route),
        method: fc.oneof(
          { weight: 12, arbitrary: fc.constant(route.method) },
          { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') },
        ),
        params: fc.record(Object.fromEntries(route.pathParams.map((p) => [p.name as string, pathParamArb(p.schema, p.name, false)]))),
        query: queryArb(route.queryParams),
        body: bodyArb(route.body ? schemaArb(route.body, undefined, 0) : undefined),
        headers: headersArb(),
        // well-formed (but wrong) signature headers take a request past the header checks to the signature
        plausible: fc.record({
          kind: fc.constantFrom('none', 'none', 'human', 'agent'),
          nonce: fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/),
          hex: fc.stringMatching(/^[0-9a-f]{64}$/),
        }),
      });
    });
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ route, method, params, query, body, headers, plausible }) => {
        statsLabel = `raw ${route.method} ${route.path}`;
        const h: Record<string, string> = { ...headers };
        if (plausible.kind === 'human')
          Object.assign(h, { 'x-timestamp': String(Date.now()), 'x-nonce': plausible.nonce, 'x-signature': plausible.hex });
        if (plausible.kind === 'agent')
          Object.assign(h, {
            'x-agent-timestamp': String(Date.now()),
            'x-agent-nonce': plausible.nonce,
            'x-agent-signature': Buffer.from(plausible.hex + plausible.hex, 'hex').toString('base64url'),
          });
        if (body.contentType !== undefined) h['content-type'] = body.contentType;
        const payload = method === 'GET' || method === 'HEAD' ? (body.payload ? body.payload : undefined) : body.payload;
        await inject({ method, url: `${fillPath(route, params)}${query}`, headers: h, payload });
      }),
      { numRuns: RUNS.raw, includeErrorInReport: true, ...SEED },
    );
  });

  test('raw path parameters over a real socket (`..`, %2e%2e, %00, bytes above 0x7f, overlong)', async () => {
    const withParams = routes.filter((r) => r.pathParams.length > 0);
    const caseArb = fc.nat().chain((i) => {
      const route = withParams[i % withParams.length]!;
      return fc.record({
        route: fc.constant(route),
        params: fc.record(Object.fromEntries(route.pathParams.map((p) => [p.name as string, pathParamArb(p.schema, p.name, true)]))),
        query: queryArb(route.queryParams),
      });
    });
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ route, params, query }) => {
        statsLabel = `socket ${route.method} ${route.path}`;
        const req: Sent = {
          method: route.method,
          url: socketSafe(`${fillPath(route, params)}${query}`),
          headers: route.method === 'POST' ? { 'content-type': 'application/json' } : {},
        };
        if (route.method === 'POST') req.payload = '{}';
        const answer = await overSocket(req);
        count(answer);
        checkContract(req, answer);
      }),
      { numRuns: RUNS.socket, includeErrorInReport: true, ...SEED },
    );
  });

  test('validly signed agent writes with schema-shaped, mutated and random bodies', async () => {
    const agentRoutes = routes.filter((r) => r.auth === 'agent' || r.auth === 'agent-join');
    const caseArb = fc.nat().chain((i) => {
      const route = agentRoutes[i % agentRoutes.length]!;
      return fc.record({
        route: fc.constant(route),
        signer: fc.nat(),
        params: fc.record(Object.fromEntries(route.pathParams.map((p) => [p.name as string, schemaArb(p.schema, p.name, 0)]))),
        body: route.body ? signedBodyArb(route.body) : fc.constant(undefined),
        idempotencyKey: fc.oneof(
          { weight: 4, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.nat().map((n) => new Pick('idempotencyKey', n)) },
          { weight: 1, arbitrary: headerValue },
        ),
        agentProof: fc.oneof(
          { weight: 6, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.oneof(fc.base64String({ maxLength: 200 }), headerValue) },
        ),
        // with an idempotency key: retried once (signed again), as a bot whose answer got lost would
        retry: fc.boolean(),
      });
    });
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ route, signer: n, params, body, idempotencyKey, agentProof, retry }) => {
        statsLabel = `agent ${route.method} ${route.path}`;
        // a fresh key now and then: joins as a new bot, or signs as an unknown one
        const fresh = route.auth === 'agent-join' ? n % 3 === 0 : n % 15 === 0;
        const signer: Signer = fresh ? { key: generateAgentKey() } : bots[n % bots.length]!;
        const path = fillPath(route, Object.fromEntries(Object.entries(params).map(([k, v]) => [k, pct(String(resolve(v)))])));
        const idem = idempotencyKey === undefined ? undefined : String(resolve(idempotencyKey));
        const extra = { ...(idem !== undefined ? { idempotencyKey: idem } : {}), ...(agentProof !== undefined ? { agentProof } : {}) };
        const resolved = resolve(body, signer);
        await agentSend(signer, route.method, path, resolved, extra);
        if (idem !== undefined && retry) await agentSend(signer, route.method, path, resolved, extra);
      }),
      { numRuns: RUNS.agent, includeErrorInReport: true, ...SEED },
    );
  });

  test('validly signed human writes and reads, and credentialed operations, API-key and public routes', async () => {
    const targets = routes.filter((r) => r.auth !== 'agent' && r.auth !== 'agent-join');
    const caseArb = fc.nat().chain((i) => {
      const route = targets[i % targets.length]!;
      // each optional parameter in one case out of three
      const queryValues = fc
        .tuple(
          ...route.queryParams.map((p) =>
            fc.tuple(fc.constant(p.name as string), schemaArb(p.schema, p.name, 0), fc.constant(p.required === true), fc.nat({ max: 2 })),
          ),
        )
        .map((entries) => objectFrom(entries.filter(([, , required, keep]) => required || keep === 0).map(([k, v]) => [k, v])));
      return fc.record({
        route: fc.constant(route),
        params: fc.record(Object.fromEntries(route.pathParams.map((p) => [p.name as string, schemaArb(p.schema, p.name, 0)]))),
        query: fc.oneof(
          { weight: 4, arbitrary: queryValues },
          {
            weight: 1,
            arbitrary: fc.dictionary(
              fc.constantFrom('limit', 'cursor', 'lang', 'extra', 'actorId', 'verified'),
              fc.oneof(weirdString(), numericText),
            ),
          },
        ),
        body: route.body
          ? fc.oneof({ weight: 8, arbitrary: signedBodyArb(route.body) }, { weight: 1, arbitrary: fc.constant(undefined) })
          : fc.constant(undefined),
        bearer: fc.boolean(),
      });
    });
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ route, params, query, body, bearer }) => {
        statsLabel = `signed ${route.method} ${route.path}`;
        const path = fillPath(route, Object.fromEntries(Object.entries(params).map(([k, v]) => [k, pct(String(resolve(v)))])));
        const q = Object.fromEntries(
          Object.entries(resolve(query) as Json).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]),
        ) as Record<string, string | string[]>;
        const resolvedBody = resolve(body);
        if (route.auth === 'human') {
          await humanSend(route.method, path, route.method === 'GET' ? q : ((resolvedBody ?? {}) as Json));
          return;
        }
        const headers: Record<string, string> = {};
        if (route.auth === 'operations')
          Object.assign(headers, bearer ? { authorization: `Bearer ${TEST_OPS_TOKEN}` } : { 'x-operations-token': TEST_OPS_TOKEN });
        if (route.auth === 'api-key')
          Object.assign(headers, bearer ? { authorization: `Bearer ${TEST_API_KEY}` } : { 'x-api-key': TEST_API_KEY });
        const payload = route.method === 'GET' || resolvedBody === undefined ? undefined : JSON.stringify(resolvedBody);
        await inject({ method: route.method, url: `${path}${toQueryString(q)}`, headers: withContentType(headers, payload), payload });
      }),
      { numRuns: RUNS.credentialed, includeErrorInReport: true, ...SEED },
    );
  });
  test("revision proposals made of the story's own packets, voted on to acceptance", async () => {
    type Changes = Json;
    const caseArb = fc.record({
      story: fc.nat(),
      // which packet each changed field comes from: the current one, the first version, or new text
      fields: fc.array(
        fc.tuple(
          fc.constantFrom('title', 'summary', 'body', 'claims', 'sources'),
          fc.constantFrom('current', 'first', 'fresh', 'duplicate'),
        ),
        { minLength: 1, maxLength: 3 },
      ),
      fresh: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
      proposer: fc.nat(),
      votes: fc.array(fc.tuple(fc.nat(), fc.constantFrom('ACCEPT', 'ACCEPT', 'REJECT')), { minLength: 1, maxLength: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ story, fields, fresh, proposer, votes }) => {
        statsLabel = 'revisions GET versions';
        const storyId = pools.publishedStoryId[story % pools.publishedStoryId.length]!;
        const answer = await inject({ method: 'GET', url: `/v1/stories/${storyId}/versions`, headers: {} });
        if (answer.status !== 200) return;
        const { versions, currentPacketHash: hash } = JSON.parse(answer.text) as { versions: Json[]; currentPacketHash: string };
        const current = versions.find((v) => v.current)!.packet as Json;
        const first = versions[0]!.packet as Json;
        const changes: Changes = {};
        for (const [field, from] of fields) {
          if (from === 'current') changes[field] = current[field];
          else if (from === 'first') changes[field] = first[field];
          else if (from === 'duplicate')
            changes[field] =
              field === 'claims'
                ? [
                    { id: 'dup', text: 'a' },
                    { id: 'dup', text: 'b' },
                  ]
                : field === 'sources'
                  ? [{ url: 'https://example.org/dup' }, { url: 'https://example.org/dup' }]
                  : `${fresh}`;
          else
            changes[field] =
              field === 'claims' ? [{ text: fresh }] : field === 'sources' ? [{ url: `https://example.org/${pct(fresh)}` }] : fresh;
        }
        const author = bots[proposer % bots.length]!;
        statsLabel = 'revisions propose';
        const proposal = await agentSend(author, 'POST', '/v1/agents/revision-proposals', {
          botId: author.key.botId,
          verified: false,
          storyId,
          packetHash: hash,
          changes,
          rationale: 'robustness',
        });
        if (proposal.status !== 202) return;
        const proposalId = (JSON.parse(proposal.text) as Json).id as string;
        statsLabel = 'revisions vote';
        for (const [voter, vote] of votes) {
          const bot = bots[voter % bots.length]!;
          await agentSend(bot, 'POST', `/v1/agents/revision-proposals/${proposalId}/votes`, {
            botId: bot.key.botId,
            verified: false,
            vote,
          });
        }
      }),
      { numRuns: RUNS.revisions, includeErrorInReport: true, ...SEED },
    );
  });

  describe('regressions found by the properties', () => {
    before(() => {
      statsLabel = 'regressions';
    });

    const story = () => {
      const pair = pools.pair.find((p) => pools.publishedStoryId.includes(p.split(' ')[0]!))!;
      return pair.split(' ')[0]!;
    };

    function expectError(answer: Answer, status: number, code: string, path?: string) {
      const body = JSON.parse(answer.text) as Json;
      assert.equal(answer.status, status, answer.text);
      assert.equal(body.code, code, answer.text);
      assert.equal(answer.headers['x-request-id'], body.requestId);
      if (path !== undefined)
        assert.ok(
          (body.details as Json[]).some((d) => d.path === path),
          `a detail names ${path}: ${answer.text}`,
        );
    }

    /** Writes raw bytes to the listening service and reads until it closes the connection. */
    function rawHttp(bytes: Buffer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
      const { port } = new URL(baseUrl);
      return new Promise((resolveRaw, reject) => {
        const socket = connect(Number(port), '127.0.0.1');
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('error', reject);
        socket.on('close', () => {
          const text = Buffer.concat(chunks).toString('latin1');
          const [head = '', body = ''] = text.split('\r\n\r\n');
          const [statusLine = '', ...lines] = head.split('\r\n');
          const headers = Object.fromEntries(
            lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
          );
          resolveRaw({ status: Number(statusLine.split(' ')[1]), headers, body });
        });
        socket.write(bytes);
      });
    }

    test('NUL (U+0000) in a body string is 400 VALIDATION_FAILED naming the field (PostgreSQL text refused it: 500)', async () => {
      const bot = bots[0]!;
      const joining = generateAgentKey();
      expectError(
        await agentSend({ key: joining }, 'POST', '/v1/agents/join', { publicKey: joining.publicKey, name: '\u0000a' }),
        400,
        'VALIDATION_FAILED',
        '/name',
      );
      expectError(
        await agentSend(bot, 'POST', '/v1/candidates', {
          botId: bot.key.botId,
          verified: false,
          ...packet('nul-body', { body: 'a\u0000b' }),
        }),
        400,
        'VALIDATION_FAILED',
        '/body',
      );
      const sources = [{ url: 'https://example.org/nul', title: 'minutes \u0000' }];
      expectError(
        await agentSend(bot, 'POST', '/v1/candidates', { botId: bot.key.botId, verified: false, ...packet('nul-source', { sources }) }),
        400,
        'VALIDATION_FAILED',
        '/sources/0/title',
      );
      expectError(
        await humanSend('POST', `/v1/stories/${story()}/comments`, { actorId: 'reader-1', verified: false, body: '\u0000' }),
        400,
        'VALIDATION_FAILED',
        '/body',
      );
    });

    test('an unpaired surrogate in a body string is 400 (jsonb refused its \\u escape: 500); paired ones are stored', async () => {
      const bot = bots[0]!;
      expectError(
        await agentSend(bot, 'POST', '/v1/candidates', {
          botId: bot.key.botId,
          verified: false,
          ...packet('surrogate', { title: 'ferry \ud800' }),
        }),
        400,
        'VALIDATION_FAILED',
        '/title',
      );
      const claims = [{ text: 'fine' }, { text: '\udfff leading low surrogate' }];
      expectError(
        await agentSend(bot, 'POST', '/v1/candidates', { botId: bot.key.botId, verified: false, ...packet('surrogate-claim', { claims }) }),
        400,
        'VALIDATION_FAILED',
        '/claims/1/text',
      );
      const ok = await agentSend(bot, 'POST', '/v1/candidates', {
        botId: bot.key.botId,
        verified: false,
        ...packet('astral', { title: 'Ferry 😀 schedule 𝄞' }),
      });
      assert.equal(ok.status, 202, ok.text);
      assert.equal((JSON.parse(ok.text) as Json).packet.title, 'Ferry 😀 schedule 𝄞');
    });

    test('a body nested thousands of levels is 400 before the signature is checked (canonical JSON overflowed the stack: 500)', async () => {
      const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
      const humanHeaders = () => ({
        'content-type': 'application/json',
        'x-timestamp': String(Date.now()),
        'x-nonce': `nonce${Date.now()}`,
        'x-signature': '0'.repeat(64),
      });
      const comment = (x: string) =>
        inject({
          method: 'POST',
          url: `/v1/stories/${story()}/comments`,
          headers: humanHeaders(),
          payload: `{"actorId":"reader-1","verified":false,"body":"b","x":${x}}`,
        });
      expectError(await comment(deep(20_000)), 400, 'VALIDATION_FAILED', '/');
      // the limit is 64 levels counting the body itself: 63 more still reach the signature check
      expectError(await comment(deep(63)), 401, 'SIGNATURE_INVALID');
      expectError(await comment(deep(64)), 400, 'VALIDATION_FAILED', '/');
      const key = bots[0]!.key;
      const agentHeaders = {
        'content-type': 'application/json',
        'x-agent-timestamp': String(Date.now()),
        'x-agent-nonce': 'nonce-12345678',
        'x-agent-signature': 'A'.repeat(86),
      };
      for (const url of ['/v1/agents/join', '/v1/candidates']) {
        const answer = await inject({
          method: 'POST',
          url,
          headers: agentHeaders,
          payload: `{"botId":"${key.botId}","publicKey":"${key.publicKey}","x":${deep(100_000)}}`,
        });
        expectError(answer, 400, 'VALIDATION_FAILED', '/');
      }
    });

    test('a revision that changes nothing, recreates a version or repeats a claim id is refused when proposed (accepting it was a 500)', async () => {
      const [author, proposer, voter1, voter2] = bots as [Signer, Signer, Signer, Signer];
      const submitted = await agentSend(author, 'POST', '/v1/candidates', {
        botId: author.key.botId,
        verified: false,
        ...packet('revision-regression'),
      });
      const { storyId, hash, packet: first } = JSON.parse(submitted.text) as Json;
      assert.equal(
        (await inject({ method: 'POST', url: `/v1/publish/${hash}/compute`, headers: { 'x-operations-token': TEST_OPS_TOKEN } })).status,
        200,
      );
      const propose = (packetHash: string, changes: Json) =>
        agentSend(proposer, 'POST', '/v1/agents/revision-proposals', {
          botId: proposer.key.botId,
          verified: false,
          storyId,
          packetHash,
          changes,
          rationale: 'regression',
        });
      expectError(await propose(hash, { title: first.title }), 400, 'VALIDATION_FAILED', '/changes');
      expectError(
        await propose(hash, {
          claims: [
            { id: 'same', text: 'a' },
            { id: 'same', text: 'b' },
          ],
        }),
        400,
        'VALIDATION_FAILED',
        '/changes/claims/1/id',
      );
      const renamed = await propose(hash, { title: 'A renamed ferry story' });
      assert.equal(renamed.status, 202, renamed.text);
      const proposalId = (JSON.parse(renamed.text) as Json).id as string;
      for (const voter of [voter1, voter2]) {
        const vote = await agentSend(voter, 'POST', `/v1/agents/revision-proposals/${proposalId}/votes`, {
          botId: voter.key.botId,
          verified: false,
          vote: 'ACCEPT',
        });
        assert.equal(vote.status, 202, vote.text);
      }
      const versions = JSON.parse((await inject({ method: 'GET', url: `/v1/stories/${storyId}/versions`, headers: {} })).text) as Json;
      assert.equal(versions.currentVersion, 2);
      expectError(await propose(versions.currentPacketHash, { title: first.title }), 409, 'REVISION_RECREATES_VERSION');
    });

    test("a replayed error answer (same idempotency key) carries the retry's request id (it carried the first one's)", async () => {
      const bot = bots[1]!;
      const body = { botId: bot.key.botId, verified: false, storyId: 'st_does_not_exist', packetHash: '0'.repeat(64) };
      const idempotencyKey = `replay-${Date.now()}`;
      const first = await agentSend(bot, 'POST', '/v1/agents/objections', body, { idempotencyKey });
      const retried = await agentSend(bot, 'POST', '/v1/agents/objections', body, { idempotencyKey });
      expectError(first, 404, 'NOT_FOUND');
      expectError(retried, 404, 'NOT_FOUND');
      assert.equal(retried.headers['idempotent-replayed'], 'true');
      assert.notEqual((JSON.parse(retried.text) as Json).requestId, (JSON.parse(first.text) as Json).requestId);
    });

    test("a path with bad percent-encoding or an overlong parameter answers the error body (was Fastify's, without requestId)", async () => {
      expectError(await inject({ method: 'GET', url: '/v1/stories/%ff', headers: {} }), 400, 'MALFORMED_URL');
      expectError(
        await inject({
          method: 'POST',
          url: '/v1/agents/revision-proposals/a%zz/votes',
          headers: { 'content-type': 'application/json' },
          payload: '{}',
        }),
        400,
        'MALFORMED_URL',
      );
      expectError(await inject({ method: 'GET', url: `/v1/stories/${'a'.repeat(201)}`, headers: {} }), 400, 'VALIDATION_FAILED');
      // a parameter over any schema's length is the schema's refusal too, naming it (a URL over its limit is 414)
      expectError(await inject({ method: 'GET', url: `/v1/stories/${'a'.repeat(401)}`, headers: {} }), 400, 'VALIDATION_FAILED');
      expectError(await inject({ method: 'GET', url: `/v1/stories/${'a'.repeat(9000)}`, headers: {} }), 414, 'URI_TOO_LONG');
    });

    test("what Node's HTTP parser refuses answers the error body with x-request-id, then closes (was a bare 400)", async () => {
      for (const [bytes, status, code] of [
        [Buffer.from('GET /v1/stories/\xff HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1'), 400, 'MALFORMED_REQUEST'],
        [Buffer.from('GET /v1/stories/a\x01b HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1'), 400, 'MALFORMED_REQUEST'],
        [Buffer.from(`GET /healthz HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`, 'latin1'), 431, 'HEADERS_TOO_LARGE'],
        // a byte HTTP does not allow in a header is a header problem, named, not one of the target
        [Buffer.from('GET /v1/candidates/x/status HTTP/1.1\r\nHost: x\r\nx-api-key: ab\x01cd\r\n\r\n', 'latin1'), 400, 'MALFORMED_HEADER'],
        [Buffer.from('GET /v1/feed HTTP/1.1\r\nHost: x\r\nx-nonce: ab\x7fcdefgh\r\n\r\n', 'latin1'), 400, 'MALFORMED_HEADER'],
        [Buffer.from('GET /v1/feed HTTP/1.1\r\nHost: x\r\nx-a(b: c\r\n\r\n', 'latin1'), 400, 'MALFORMED_HEADER'],
      ] as const) {
        const answer = await rawHttp(bytes);
        assert.equal(answer.status, status, answer.body);
        const body = JSON.parse(answer.body) as Json;
        assert.equal(body.code, code);
        assert.equal(typeof body.error, 'string');
        assert.equal(answer.headers['x-request-id'], body.requestId);
        assert.equal(answer.headers.connection, 'close');
        if (code === 'MALFORMED_HEADER') assert.doesNotMatch(body.message, /target/);
      }
      const named = JSON.parse(
        (await rawHttp(Buffer.from('GET /v1/feed HTTP/1.1\r\nHost: x\r\nx-api-key: secret\x01value\r\n\r\n', 'latin1'))).body,
      ) as Json;
      assert.deepEqual(named.details, [{ header: 'x-api-key', code: 'MALFORMED', message: 'x-api-key is not a valid header' }]);
      assert.doesNotMatch(JSON.stringify(named), /secret/);
    });
  });
});
