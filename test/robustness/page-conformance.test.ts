import assert from 'node:assert/strict';
import { channel } from 'node:diagnostics_channel';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import { LANGS } from '../../src/platform/schemas.js';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { createDemoTestApp, type TestApp } from '../helpers/app.js';
import { FULL_FUZZ, fuzzRuns } from '../helpers/fuzz.js';
import { siteBrowser } from '../helpers/site-browser.js';

/**
 * The pages' counterpart of openapi-conformance.test.ts: every route of the reader site and the console, with
 * cases generated from the schemas Fastify holds for it. Those routes are hidden from the OpenAPI document, so
 * they are collected as the app declares them (an onRoute hook put on the app as Fastify creates it, through its
 * `fastify.initialization` diagnostics channel): method, URL, and the params, querystring and body schemas.
 *
 * Each case is one route, one visitor (anonymous, a reader, a content admin who also approves control-plane
 * requests, a rewards admin: each logged in with the development login) and each field of the route's schemas
 * either valid (generated from its schema), at the edge of what its schema accepts (the longest value of one
 * character its pattern allows, an integer's bounds, each value of an enumeration), hostile (huge, negative,
 * unicode, control bytes, very long, an array where one value goes), a real id seen on an earlier page, or
 * missing; sometimes an unknown field besides. Forms carry the visitor's CSRF token (sometimes none or a bad
 * one). Every answer: no 5xx; a refusal is the site's HTML error page (never a JSON body) in the page's
 * language; a redirect stays on the site.
 *
 * Before the generated cases, a sweep: every route, as the visitor whose area it is, once with each edge value
 * of each field (the values validation lets through are where a 500 hides; a value it refuses is a 400 by
 * construction). Smoke count in `npm test` (the sweep with fewer characters), full count in `npm run test:fuzz`;
 * FUZZ_SEED=<seed> replays a reported seed, FUZZ_RUNS_SCALE=<n> multiplies the generated cases.
 */

const RUNS = fuzzRuns(1000, 100);
const SEED = process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {};

type Schema = {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
};

interface PageRoute {
  method: 'GET' | 'POST';
  url: string;
  params?: Schema;
  querystring?: Schema;
  body?: Schema;
}

// ---------------------------------------------------------------------------------------------------------
// The routes, as the app declares them.

/** Paths of the JSON API and its documents: the conformance and no-500 fuzzers cover those from the document. */
const API_PREFIXES = ['/v1', '/docs', '/openapi', '/healthz', '/readyz', '/metrics'];
const declared = new Map<object, PageRoute[]>();

function collectRoutes(message: unknown) {
  const { fastify } = message as { fastify: FastifyInstance };
  const routes: PageRoute[] = [];
  declared.set(fastify, routes);
  fastify.addHook('onRoute', (route) => {
    const schema = (route.schema ?? {}) as { hide?: boolean; params?: Schema; querystring?: Schema; body?: Schema };
    if (schema.hide !== true || API_PREFIXES.some((p) => route.url.startsWith(p))) return;
    for (const method of [route.method].flat() as string[])
      if (method === 'GET' || method === 'POST')
        routes.push({
          method,
          url: route.url,
          params: schema.params,
          querystring: schema.querystring,
          body: schema.body,
          // a counterexample names its route, not the route's schemas
          [fc.toStringMethod]: () => `${method} ${route.url}`,
        } as PageRoute);
  });
}

// ---------------------------------------------------------------------------------------------------------
// Visitors.

type Persona = 'anonymous' | 'reader' | 'content-admin' | 'rewards-admin';
const PERSONAS: Persona[] = ['anonymous', 'reader', 'content-admin', 'rewards-admin'];
const NAMES: Record<Exclude<Persona, 'anonymous'>, string> = { reader: 'fuzz-reader', 'content-admin': 'ana', 'rewards-admin': 'rex' };

/** Whose area a route is: the visitor the sweep sends. */
const ownerOf = (url: string): Persona =>
  url.startsWith('/console/rewards')
    ? 'rewards-admin'
    : url.startsWith('/console')
      ? 'content-admin'
      : url.startsWith('/login')
        ? 'anonymous'
        : 'reader';

// ---------------------------------------------------------------------------------------------------------
// Values.

/** Real values seen on earlier pages (ids, cursors), fed back into the cases so they reach real rows. */
const pools = { id: ['st_unknown0000000000'], cursor: ['W10.AAAAAAAAAAAAAAAA'] };
type PoolName = keyof typeof pools;
const POOL_MAX = 200;

function remember(pool: PoolName, value: string) {
  const list = pools[pool];
  if (list.includes(value)) return;
  if (list.length < POOL_MAX) list.push(value);
  else list[value.length % POOL_MAX] = value;
}

function harvest(body: string) {
  for (const m of body.matchAll(/\b[a-z]{2,4}_[A-Za-z0-9_-]{16}(?![A-Za-z0-9_-])/g)) remember('id', m[0]);
  for (const m of body.matchAll(/[?&;](?:amp;)?cursor=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/g)) remember('cursor', m[1]!);
}

/** A value taken from a pool when the request is sent (the pools grow while the cases run). */
class Pick {
  constructor(
    readonly pool: PoolName,
    readonly index: number,
  ) {}
  [fc.toStringMethod]() {
    return `pick(${this.pool}#${this.index})`;
  }
}
/** The visitor's CSRF token, filled in when the request is sent. */
const TOKEN = Symbol('csrf token');

type Value = string | Pick | typeof TOKEN;
type FieldValue = Value | Value[] | undefined;
type Fields = Record<string, FieldValue>;
const valuesOf = (v: FieldValue): Value[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

const alternativesOf = (s: Schema): Schema[] => (s.anyOf ? s.anyOf.flatMap(alternativesOf) : [s]);

/** Values the schema accepts. */
function validArb(schema: Schema): fc.Arbitrary<string> {
  const arbs = alternativesOf(schema).map((s): fc.Arbitrary<string> => {
    if (s.const !== undefined) return fc.constant(String(s.const));
    if (s.enum) return fc.constantFrom(...s.enum.map(String));
    if (s.type === 'integer' || s.type === 'number')
      return fc
        .integer({ min: Math.max(s.minimum ?? -1e9, Number.MIN_SAFE_INTEGER), max: Math.min(s.maximum ?? 1e9, Number.MAX_SAFE_INTEGER) })
        .map(String);
    if (s.type === 'boolean') return fc.constantFrom('true', 'false');
    const minLength = s.minLength ?? 0;
    const maxLength = s.maxLength ?? 4000;
    if (s.pattern) {
      const pattern = new RegExp(s.pattern, 'u');
      return fc.stringMatching(pattern).filter((v) => v.length >= minLength && v.length <= maxLength && pattern.test(v));
    }
    return fc.string({ unit: 'grapheme', minLength, maxLength: Math.min(maxLength, 60) }).filter((v) => v.length <= maxLength);
  });
  return arbs.length === 1 ? arbs[0]! : fc.oneof(...arbs);
}

/** What edge values are made of: a digit, a letter, a dash, a space, beyond Latin-1, beyond the BMP (more in the full run). */
const FILLS = FULL_FUZZ ? ['9', '0', 'a', 'Z', '_', '-', '.', ' ', 'é', '漢', '😀'] : ['9', 'a', '-', ' ', '漢', '😀'];

/**
 * Values at the edge of what the schema accepts: each value of an enumeration, an integer's bounds, the longest
 * string of one character its pattern allows (a field with no maxLength gets 4000 characters: unbounded), and a
 * short path of this site made of that character (what a page to come back to is).
 */
function edgeValues(schema: Schema): string[] {
  const out = new Set<string>();
  for (const s of alternativesOf(schema)) {
    if (s.const !== undefined) out.add(String(s.const));
    else if (s.enum) for (const v of s.enum) out.add(String(v));
    else if (s.type === 'integer' || s.type === 'number') {
      out.add(String(s.minimum ?? Number.MIN_SAFE_INTEGER));
      out.add(String(s.maximum ?? Number.MAX_SAFE_INTEGER));
    } else if (s.type === 'string') {
      const pattern = s.pattern ? new RegExp(s.pattern, 'u') : null;
      const length = s.maxLength ?? 4000;
      for (const fill of FILLS) {
        const text = fill.repeat(length).slice(0, length);
        for (const value of [text, `/${fill.repeat(8)}`])
          if (value.length >= (s.minLength ?? 0) && !/[\ud800-\udfff]$/.test(value) && (!pattern || pattern.test(value))) out.add(value);
      }
    }
  }
  return [...out];
}

const HOSTILE = [
  '',
  ' ',
  '-1',
  '0',
  '1.5',
  '1e308',
  'NaN',
  '99999999999999999999',
  '9223372036854775808',
  '-9223372036854775809',
  '0x10',
  '%00',
  '\u0000',
  '\u0001\u0002\u001f',
  '\r\nX-Injected: 1',
  '\u007f',
  '\ud800',
  '\u202e\u2028',
  '😀👨‍👩‍👧',
  'é\u0301',
  '漢字',
  '<script>alert(1)</script>',
  `"'\\`,
  '../..',
  '//evil.example/',
  '/\\evil.example',
  'https://evil.example/',
  'javascript:alert(1)',
  '/\u0001',
  '/é?x=\u00ff',
  '/console/\u0085',
  'st_unknown0000000000',
  'W10.AAAAAAAAAAAAAAAA',
  '9'.repeat(100),
  'a'.repeat(2001),
  'x'.repeat(20_000),
];
const hostileArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  // a path of this site with anything in it (where a field names a page to come back to)
  {
    weight: 1,
    arbitrary: fc
      .string({
        unit: fc.oneof(fc.constantFrom(...HOSTILE.filter((h) => h.length < 30)), fc.string({ unit: 'binary', maxLength: 3 })),
        maxLength: 4,
      })
      .map((p) => `/${p}`),
  },
);

/** A field's value in one case: valid, at its edge, hostile, an array, a real id, or missing. */
function fieldArb(name: string, schema: Schema, required: boolean): fc.Arbitrary<FieldValue> {
  if (name === '_csrf')
    return fc.oneof(
      { weight: 12, arbitrary: fc.constant<FieldValue>(TOKEN) },
      { weight: 1, arbitrary: fc.constant<FieldValue>(undefined) },
      { weight: 1, arbitrary: hostileArb },
      { weight: 1, arbitrary: fc.constant<FieldValue>([TOKEN, TOKEN]) },
    );
  const edges = edgeValues(schema);
  // mostly values the schema takes, so that most cases get past validation to the handler and what it calls
  const arbs: { weight: number; arbitrary: fc.Arbitrary<FieldValue> }[] = [
    { weight: 10, arbitrary: validArb(schema) },
    { weight: 2, arbitrary: hostileArb },
    { weight: 1, arbitrary: fc.array(fc.oneof(validArb(schema), hostileArb), { minLength: 2, maxLength: 3 }) },
    { weight: required ? 1 : 3, arbitrary: fc.constant(undefined) },
  ];
  if (edges.length) arbs.push({ weight: 3, arbitrary: fc.constantFrom(...edges) });
  if (/(^id$|Id$|^story$|^event$|^target)/.test(name)) arbs.push({ weight: 3, arbitrary: fc.nat().map((i) => new Pick('id', i)) });
  if (name === 'cursor') arbs.push({ weight: 3, arbitrary: fc.nat().map((i) => new Pick('cursor', i)) });
  return fc.oneof(...arbs);
}

const propertiesOf = (schema: Schema | undefined) => Object.entries(schema?.properties ?? {});

/** Every field of a schema, and sometimes an unknown one. */
function fieldsArb(schema: Schema | undefined): fc.Arbitrary<Fields> {
  const known = fc.record(
    Object.fromEntries(propertiesOf(schema).map(([name, s]) => [name, fieldArb(name, s, schema?.required?.includes(name) === true)])),
  );
  const unknown = fc.option(fc.tuple(fc.constantFrom('colour', 'actorId', '__proto__', 'lang[]', ''), hostileArb), { freq: 8 });
  return fc.tuple(known, unknown).map(([fields, extra]) => (extra ? { ...fields, [extra[0]]: extra[1] } : fields));
}

/** A value each field's schema accepts (the first of its generator with a fixed seed): the sweep's other fields. */
function plainFields(schema: Schema | undefined): Fields {
  const fields: Fields = {};
  for (const [name, s] of propertiesOf(schema)) {
    if (name === '_csrf') fields[name] = TOKEN;
    else if (name === 'lang') fields[name] = 'en';
    else if (schema?.required?.includes(name)) fields[name] = fc.sample(validArb(s), { numRuns: 1, seed: 42 })[0]!;
  }
  return fields;
}

interface Case {
  route: PageRoute;
  persona: Persona;
  params: Fields;
  query: Fields;
  body: Fields;
}

// ---------------------------------------------------------------------------------------------------------
// Requests.

/** Percent-encodes like encodeURIComponent, but a lone surrogate becomes U+FFFD instead of throwing. */
const pct = (s: string) =>
  encodeURIComponent(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));

describe('the site and the console answer every generated form and query with a page, never a 5xx', () => {
  let t: TestApp;
  let routes: PageRoute[] = [];
  const browsers = {} as Record<Persona, ReturnType<typeof siteBrowser>>;
  const tokens = {} as Record<Persona, string>;
  const seen = new Map<string, number>();

  async function signIn(persona: Persona) {
    const browser = siteBrowser(t.app, `203.0.113.${PERSONAS.indexOf(persona) + 20}`);
    browsers[persona] = browser;
    if (persona === 'anonymous') await browser.get('/login?lang=en');
    else {
      await browser.devLogin(NAMES[persona]);
      await browser.get(persona === 'reader' ? '/me?lang=en' : '/console?lang=en');
    }
    tokens[persona] = browser.csrf();
  }

  before(async () => {
    const initialization = channel('fastify.initialization');
    initialization.subscribe(collectRoutes);
    try {
      t = await createDemoTestApp({
        HUMAN_PROOF_VERIFIER: 'dev',
        CONTENT_ADMIN_IDS: devLinkedHumanId(NAMES['content-admin']),
        REWARDS_ADMIN_IDS: devLinkedHumanId(NAMES['rewards-admin']),
        CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS: devLinkedHumanId(NAMES['content-admin']),
        RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '1000000000',
        RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '1000000000',
        RATE_LIMIT_VERIFIED_WRITES_PER_MINUTE: '1000000000',
        RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '1000000000',
      });
    } finally {
      initialization.unsubscribe(collectRoutes);
    }
    routes = declared.get(t.app) ?? [];
    declared.clear();
    harvest((await t.app.inject('/?lang=en&mode=recent')).body);
    for (const persona of PERSONAS) await signIn(persona);
  });
  after(() => t?.close());

  test('the routes are collected with their schemas', () => {
    const urls = new Set(routes.map((r) => `${r.method} ${r.url}`));
    for (const route of [
      'GET /',
      'GET /search',
      'POST /stories/:id/comment',
      'GET /console/moderation/webhooks',
      'POST /console/rewards/settlements/run',
    ])
      assert.ok(urls.has(route), `${route} is collected`);
    assert.ok(routes.length >= 70, `${routes.length} routes`);
    assert.ok(routes.find((r) => r.url === '/console/moderation/webhooks')?.querystring?.properties?.before, 'with its query schema');
  });

  async function check(c: Case) {
    const browser = browsers[c.persona];
    const resolve = (value: Value): string =>
      value === TOKEN ? tokens[c.persona] : value instanceof Pick ? pools[value.pool][value.index % pools[value.pool].length]! : value;
    const entries = (fields: Fields) =>
      Object.entries(fields).flatMap(([name, v]) => valuesOf(v).map((x) => [name, resolve(x)] as [string, string]));
    const path = c.route.url.replace(/:(\w+)/g, (_, name: string) => {
      const value = valuesOf(c.params[name])[0];
      const text = value === undefined ? 'x' : resolve(value);
      // a segment of only dots cannot be sent as one: URL parsers remove it, so the request would be another path's
      return pct(/^\.{1,2}$/.test(text) ? `${text}_` : text);
    });
    const search = new URLSearchParams(entries(c.query)).toString();
    const url = `${path}${search ? `?${search}` : ''}`;
    const form = entries(c.body);
    let res: LightMyRequestResponse;
    if (c.route.method === 'GET') res = await browser.get(url);
    else {
      res = await t.app.inject({
        method: 'POST',
        url,
        remoteAddress: `203.0.113.${PERSONAS.indexOf(c.persona) + 20}`,
        headers: {
          cookie: [...browser.jar].map(([name, value]) => `${name}=${value}`).join('; '),
          'content-type': 'application/x-www-form-urlencoded',
          'sec-fetch-site': 'same-origin',
          origin: 'http://localhost:80',
        },
        payload: new URLSearchParams(form).toString(),
      });
    }
    try {
      expectPage(c, url, form, res);
    } finally {
      // a form that logs in or out changes who the browser is: it becomes its visitor again
      if (c.route.method === 'POST' && (c.route.url.startsWith('/login') || c.route.url === '/logout')) await signIn(c.persona);
    }
  }

  /** No 5xx; a refusal is the HTML error page in the page's language; a redirect stays on the site. */
  function expectPage(c: Case, url: string, form: [string, string][], res: LightMyRequestResponse) {
    const status = res.statusCode;
    seen.set(String(status), (seen.get(String(status)) ?? 0) + 1);
    const what = `${c.route.method} ${url.slice(0, 300)} as ${c.persona}${form.length ? ` with ${JSON.stringify(form).slice(0, 400)}` : ''} → ${status} ${res.body.slice(0, 300)}`;
    assert.ok(status < 500, what);

    if (status === 414 && String(res.headers['content-type']).startsWith('application/json')) {
      // a path parameter longer than any schema allows is refused by the router, before any route (and so before
      // the site's error page): the service's JSON error body, as for any path (src/platform/route-table.ts)
      assert.equal(res.json().code, 'URI_TOO_LONG', what);
    } else if (status >= 400) {
      assert.match(String(res.headers['content-type']), /^text\/html/, `a refusal is an HTML page: ${what}`);
      // the page's language is the one its address or form asked for; a form too large to be read gets the default
      const asked = c.route.method === 'GET' ? c.query.lang : c.body.lang;
      const lang = status !== 413 && typeof asked === 'string' && (LANGS as readonly string[]).includes(asked) ? asked : 'en';
      assert.ok(res.body.startsWith(`<!doctype html><html lang="${lang}">`), `a refusal in the page's language (${lang}): ${what}`);
    } else if (status >= 300 && status < 400) {
      assert.match(String(res.headers.location), /^\/(?![/\\])/, `a redirect stays on the site: ${what}`);
    } else if (String(res.headers['content-type']).startsWith('text/html')) harvest(res.body);
  }

  test('no 5xx; every refusal is the HTML error page in the page language; every redirect stays on the site', async () => {
    const sweep: [Case][] = [];
    for (const route of routes) {
      const base = {
        route,
        persona: ownerOf(route.url),
        params: plainFields(route.params),
        query: plainFields(route.querystring),
        body: plainFields(route.body),
      };
      for (const part of ['params', 'query', 'body'] as const) {
        const schema = part === 'query' ? route.querystring : route[part];
        for (const [name, s] of propertiesOf(schema)) {
          // the token is the visitor's; every language is a value of every page (the generated cases vary both)
          if (name === '_csrf' || name === 'lang') continue;
          for (const value of edgeValues(s)) sweep.push([{ ...base, [part]: { ...base[part], [name]: value } }]);
        }
      }
    }
    const caseArb = fc.nat().chain((i) => {
      const route = routes[i % routes.length]!;
      return fc.record({
        route: fc.constant(route),
        persona: fc.oneof(
          { weight: 3, arbitrary: fc.constant(ownerOf(route.url)) },
          { weight: 1, arbitrary: fc.constantFrom(...PERSONAS) },
        ),
        params: fieldsArb(route.params),
        query: route.method === 'GET' ? fieldsArb(route.querystring) : fc.constant({}),
        body: route.method === 'POST' ? fieldsArb(route.body) : fc.constant({}),
      });
    });
    await fc.assert(
      fc.asyncProperty(caseArb, (c) => check(c)),
      { numRuns: RUNS + sweep.length, examples: sweep, includeErrorInReport: true, ...SEED },
    );
    console.error(
      `page conformance fuzz: ${sweep.length} sweep cases and ${RUNS} generated over ${routes.length} routes; statuses ${JSON.stringify(Object.fromEntries(seen))}`,
    );
  });
});
