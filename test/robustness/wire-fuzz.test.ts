import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { createTestApp, TEST_API_KEY, TEST_OPS_TOKEN, type TestApp } from '../helpers/app.js';
import { fuzzRuns } from '../helpers/fuzz.js';
import type { Json } from '../helpers/json.js';

/**
 * A grammar fuzzer at the wire, driven by the service's own /openapi.json (read over HTTP): every route and
 * method, and methods it does not have. Each case is raw bytes on a fresh socket, so what app.inject (used by
 * no-500.test.ts, which fuzzes the parameters and bodies the handlers see) smooths away is reached too: path
 * tricks on the whole path (`..`, `%2e%2e`, `//`, `%00`, `%2f`, bytes above 0x7f, overlong segments), header
 * mutations (credential headers with junk, duplicated and conflicting framing headers, wrong and odd content
 * types, huge and many headers), bodies generated from each route's schema and then mutated (huge, deep,
 * invalid UTF-8, not JSON), and framing (chunked, bad chunk sizes, a declared length longer than the body sent
 * (a body that never ends), a shorter one (the rest is read as the next request), a body sent slowly).
 *
 * For every case: the server answers within a bound (the request timeout is 800 ms here: a case that is not
 * answered and closed within 5 s is a hang), never a 5xx, and every 4xx answer is the error body
 * with `x-request-id` equal to its `requestId`. Smoke count in `npm test`, full count in `npm run test:fuzz`.
 */

const RUNS = fuzzRuns(600, 40);
const SEED = process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {};
const HANG_MS = 5_000;

interface Route {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  body: Json | undefined;
}

interface Parsed {
  status: number;
  headers: Record<string, string>;
  body: string;
}

let t: TestApp;
let port: number;
let routes: Route[] = [];
let components: Json = {};

function deref(schema: Json | undefined): Json {
  if (!schema) return {};
  if (typeof schema.$ref === 'string') return deref(components[schema.$ref.split('/').pop()!] as Json);
  return schema;
}

/** A schema-shaped value: required properties filled by type, a few optional ones, bounded depth. */
function shaped(input: Json | undefined, depth = 0): unknown {
  const schema = deref(input);
  if (depth > 4) return null;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (variants?.length) return shaped(variants[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const out: Json = {};
      for (const [k, v] of Object.entries((schema.properties ?? {}) as Json)) out[k] = shaped(v as Json, depth + 1);
      return out;
    }
    case 'array':
      return schema.minItems ? Array.from({ length: Math.min(schema.minItems as number, 3) }, () => shaped(schema.items, depth + 1)) : [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'string': {
      if (schema.format === 'uri') return 'https://example.org/a';
      if (schema.format === 'date-time') return new Date(0).toISOString();
      const min = (schema.minLength as number | undefined) ?? 1;
      return 'a'.repeat(Math.max(1, Math.min(min, 64)));
    }
    default:
      return 'x';
  }
}

function routesFrom(doc: Json): Route[] {
  components = doc.components?.schemas ?? {};
  const out: Route[] = [];
  for (const [path, ops] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(ops as Json)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params = (op.parameters ?? []) as Json[];
      const route: Route = {
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name as string),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name as string),
        body: op.requestBody?.content?.['application/json']?.schema as Json | undefined,
      };
      Object.defineProperty(route, fc.toStringMethod, { value: () => `${route.method} ${route.path}`, enumerable: false });
      out.push(route);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The grammar.

const junk = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('..', '.', '%2e%2e', '%2E%2e%2f', '%00', 'a%00b', '%ff', '%zz', '%', '%2f', '..%2f..%2f', '\u00e9', '~', '*', 'null'),
  fc.constantFrom('st_unknown0000000000', 'bot_' + '0'.repeat(32), '0'.repeat(64), '-1', '1e309', 'NaN'),
  fc.integer({ min: 150, max: 9_000 }).map((n) => 'p'.repeat(n)),
);

/** Bytes a request line may carry: Node refuses what is outside 0x21-0xff, which is a case too. */
function wireSafe(s: string): string {
  return [...s].map((c) => (/[\u0021-\u007e]/.test(c) ? c : encodeURIComponent(c))).join('');
}

const pathArb = (route: Route) =>
  fc
    .record({
      params: fc.array(junk, { minLength: route.pathParams.length, maxLength: route.pathParams.length }),
      trick: fc.constantFrom(
        'none',
        'none',
        'double-slash',
        'dot-segment',
        'dotdot',
        'encoded-dotdot',
        'trailing',
        'upper',
        'nul',
        'raw-high',
      ),
      query: fc.array(
        fc.tuple(fc.oneof(fc.constantFrom(...(route.queryParams.length ? route.queryParams : ['q'])), fc.string({ maxLength: 8 })), junk),
        { maxLength: 4 },
      ),
    })
    .map(({ params, trick, query }) => {
      let i = 0;
      let path = route.path.replace(/\{\w+\}/g, () => wireSafe(params[i++] ?? 'x'));
      if (trick === 'double-slash') path = path.replace('/', '//');
      if (trick === 'dot-segment') path = path.replace(/\/([^/]*)$/, '/./$1');
      if (trick === 'dotdot') path = `${path}/../..${path}`;
      if (trick === 'encoded-dotdot') path = `${path}/%2e%2e/%2E%2E%2f`;
      if (trick === 'trailing') path = `${path}/`;
      if (trick === 'upper') path = path.toUpperCase();
      if (trick === 'nul') path = `${path}%00`;
      if (trick === 'raw-high') path = `${path}\u00ff`;
      const q = query.map(([k, v]) => `${wireSafe(k)}=${wireSafe(v)}`).join('&');
      return q ? `${path}?${q}` : path;
    });

const contentTypeArb = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json, text/plain',
  '',
  ';;;',
  undefined,
);

const credentialArb = fc.constantFrom<Record<string, string>>(
  {},
  { 'x-api-key': TEST_API_KEY },
  { authorization: `Bearer ${TEST_OPS_TOKEN}` },
  { 'x-operations-token': 'wrong' },
  { authorization: 'Basic Zm9vOmJhcg==' },
  { authorization: 'Bearer' },
  { 'x-agent-timestamp': 'soon', 'x-agent-nonce': '', 'x-agent-signature': '!!!', 'x-agent-key-version': '-1' },
  { 'x-timestamp': String(Date.now()), 'x-nonce': 'n', 'x-signature': 'zz' },
  { 'idempotency-key': 'k'.repeat(300) },
  { 'x-forwarded-for': '1.2.3.4, ::1, junk' },
  { 'accept-language': 'fr;q=2, *;q=x' },
  { accept: 'text/html' },
);

type BodyKind = 'none' | 'shaped' | 'mutated' | 'huge' | 'deep' | 'not-json' | 'invalid-utf8' | 'scalar';
const bodyArb = (route: Route) =>
  fc
    .record({
      kind: fc.constantFrom<BodyKind>(
        'none',
        'shaped',
        'shaped',
        'mutated',
        'mutated',
        'huge',
        'deep',
        'not-json',
        'invalid-utf8',
        'scalar',
      ),
      extra: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
      drop: fc.nat(),
      replace: fc.jsonValue({ maxDepth: 2 }),
      depth: fc.integer({ min: 60, max: 5_000 }),
    })
    .map(({ kind, extra, drop, replace, depth }) => {
      const bytes = bodyBytes(route, kind, extra, drop, replace, depth);
      // a counterexample names the body, never prints a megabyte of it
      const body = { kind, bytes };
      Object.defineProperty(body, fc.toStringMethod, {
        value: () => `${kind} body, ${bytes?.length ?? 0} bytes: ${JSON.stringify(bytes?.subarray(0, 200).toString('latin1') ?? '')}`,
        enumerable: false,
      });
      return body;
    });

function bodyBytes(route: Route, kind: BodyKind, extra: Json, drop: number, replace: unknown, depth: number): Buffer | undefined {
  const base = (shaped(route.body) ?? {}) as Json;
  switch (kind) {
    case 'none':
      return undefined;
    case 'shaped':
      return Buffer.from(JSON.stringify(base));
    case 'mutated': {
      const keys = Object.keys(base);
      const mutated: Json = { ...base, ...extra };
      if (keys.length) mutated[keys[drop % keys.length]!] = replace;
      return Buffer.from(JSON.stringify(mutated));
    }
    case 'huge':
      return Buffer.from(JSON.stringify({ ...base, pad: 'x'.repeat(1_100_000) }));
    case 'deep':
      return Buffer.from(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
    case 'not-json':
      return Buffer.from('{"a":1,,}');
    case 'invalid-utf8':
      return Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from('"}')]);
    case 'scalar':
      return Buffer.from(JSON.stringify(replace));
  }
}

type Framing =
  'length' | 'length' | 'chunked' | 'bad-chunk' | 'short-body' | 'long-body' | 'dribble' | 'duplicate-length' | 'te-and-length';
const framingArb = fc.constantFrom<Framing>(
  'length',
  'length',
  'chunked',
  'bad-chunk',
  'short-body',
  'long-body',
  'dribble',
  'duplicate-length',
  'te-and-length',
);

const caseArb = fc.nat().chain((i) => {
  const route = routes[i % routes.length]!;
  return fc.record({
    route: fc.constant(route),
    method: fc.oneof(
      fc.constant(route.method),
      fc.constant(route.method),
      fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS', 'FOO'),
    ),
    target: pathArb(route),
    contentType: contentTypeArb,
    credentials: credentialArb,
    manyHeaders: fc.constantFrom(0, 0, 0, 40, 400),
    body: bodyArb(route),
    framing: framingArb,
  });
});

// ---------------------------------------------------------------------------------------------------------
// Sending and checking.

/** Splits what came back into HTTP answers (Content-Length or chunked bodies; HEAD answers carry no body). */
function parseAll(bytes: Buffer, method: string): Parsed[] {
  const out: Parsed[] = [];
  let rest = bytes;
  while (rest.length) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) throw new Error(`a truncated answer: ${JSON.stringify(rest.subarray(0, 300).toString('latin1'))}`);
    const [statusLine = '', ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const status = Number(statusLine.split(' ')[1]);
    rest = rest.subarray(end + 4);
    let body: Buffer = Buffer.alloc(0);
    if (method === 'HEAD' && out.length === 0 && (rest.length === 0 || rest.subarray(0, 5).toString('latin1') === 'HTTP/')) {
      // an answer to HEAD has no body (one from the parser, before the request existed, has)
    } else if (headers['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = rest.indexOf('\r\n');
        const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
        rest = rest.subarray(lineEnd + 2);
        if (!size) {
          rest = rest.subarray(rest.indexOf('\r\n') + 2);
          break;
        }
        parts.push(rest.subarray(0, size));
        rest = rest.subarray(size + 2);
      }
      body = Buffer.concat(parts);
    } else {
      const length = Number(headers['content-length'] ?? 0);
      body = rest.subarray(0, length);
      rest = rest.subarray(length);
    }
    out.push({ status, headers, body: body.toString('utf8') });
  }
  return out;
}

async function send(head: string, body: Buffer | undefined, framing: Framing): Promise<{ bytes: Buffer; hung: boolean; reset: boolean }> {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  let writeFailed = false;
  socket.on('error', () => {
    writeFailed = true;
  });
  const closed = new Promise<boolean>((resolve) => socket.once('close', () => resolve(false)));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const payload = body ?? Buffer.alloc(0);
  let framingHeaders: string;
  let wire: Buffer[] = [payload];
  switch (framing) {
    case 'chunked':
    case 'bad-chunk':
      framingHeaders = 'Transfer-Encoding: chunked\r\n';
      wire = [
        Buffer.from(`${framing === 'bad-chunk' ? 'zz' : payload.length.toString(16)}\r\n`),
        payload,
        Buffer.from(payload.length ? '\r\n0\r\n\r\n' : '\r\n'),
      ];
      break;
    case 'short-body':
      framingHeaders = `Content-Length: ${Math.floor(payload.length / 2)}\r\n`;
      break;
    case 'long-body':
      framingHeaders = `Content-Length: ${payload.length + 10}\r\n`;
      break;
    case 'duplicate-length':
      framingHeaders = `Content-Length: ${payload.length}\r\nContent-Length: ${payload.length + 1}\r\n`;
      break;
    case 'te-and-length':
      framingHeaders = `Content-Length: ${payload.length}\r\nTransfer-Encoding: chunked\r\n`;
      break;
    default:
      framingHeaders = body ? `Content-Length: ${payload.length}\r\n` : '';
  }
  socket.write(`${head}${framingHeaders}\r\n`, 'latin1');
  if (framing === 'dribble' && payload.length) {
    const third = Math.ceil(payload.length / 3);
    for (let at = 0; at < payload.length && !socket.destroyed; at += third) {
      socket.write(payload.subarray(at, at + third));
      await sleep(30);
    }
  } else for (const part of wire) if (part.length && !socket.destroyed) socket.write(part);
  const hung = await Promise.race([closed, sleep(HANG_MS).then(() => true)]);
  socket.destroy();
  return { bytes: Buffer.concat(chunks), hung, reset: writeFailed };
}

describe('wire fuzz of every route from /openapi.json (real sockets)', () => {
  before(async () => {
    t = await createTestApp({
      HTTP_HEADERS_TIMEOUT_MS: '500',
      HTTP_REQUEST_TIMEOUT_MS: '800',
      HTTP_CONNECTIONS_CHECK_MS: '50',
      RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '1000000000',
      RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '1000000000',
      RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '1000000000',
    });
    port = Number(new URL(await t.listen()).port);
    const doc = (await (await fetch(`http://127.0.0.1:${port}/openapi.json`)).json()) as Json;
    routes = routesFrom(doc);
  });
  after(() => t.close());

  test('the document lists the routes the fuzzer walks', () => {
    assert.ok(routes.length > 50, `${routes.length} routes`);
    assert.ok(routes.some((r) => r.body) && routes.some((r) => r.pathParams.length) && routes.some((r) => r.queryParams.length));
  });

  test('no raw request makes the service hang, answer 5xx, or answer a 4xx without the error body', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ route, method, target, contentType, credentials, manyHeaders, body, framing }) => {
        const headers = [
          `${method} ${target} HTTP/1.1`,
          'Host: 127.0.0.1',
          'Connection: close',
          ...(contentType !== undefined ? [`Content-Type: ${contentType}`] : []),
          ...Object.entries(credentials).map(([k, v]) => `${k}: ${v}`),
          ...Array.from({ length: manyHeaders }, (_, i) => `x-extra-${i}: ${'v'.repeat(40)}`),
        ];
        const { bytes, hung, reset } = await send(`${headers.join('\r\n')}\r\n`, body.bytes, framing);
        const what = `${method} ${target.slice(0, 200)} (${route.method} ${route.path}, ${framing}, ${String(body)})`;
        assert.equal(hung, false, `no answer and no close within ${HANG_MS} ms: ${what}`);
        // A refusal sent while the client is still writing a body (413, 415, 401 before the body is read)
        // closes the connection; the client's next write then meets a reset, which can discard the answer
        // in its receive buffer before it is read (Node does no lingering close). The refusal itself is
        // checked wherever it arrives; a reset with nothing read is the one case without an answer.
        if (reset && bytes.length === 0) return;
        const answers = parseAll(bytes, method);
        assert.ok(answers.length >= 1, `an answer before the close: ${what}`);
        for (const answer of answers) {
          assert.ok(answer.status >= 200 && answer.status < 500, `${answer.status} ${answer.body.slice(0, 300)}: ${what}`);
          if (answer.status < 400 || (method === 'HEAD' && answer.body === '')) continue;
          const error = JSON.parse(answer.body) as Json;
          assert.equal(typeof error.error, 'string', `${answer.body.slice(0, 300)}: ${what}`);
          assert.equal(typeof error.requestId, 'string');
          assert.equal(answer.headers['x-request-id'], error.requestId, `x-request-id: ${what}`);
        }
      }),
      { numRuns: RUNS, includeErrorInReport: true, ...SEED },
    );
  });
});
