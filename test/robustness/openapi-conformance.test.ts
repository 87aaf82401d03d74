import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { generateAgentKey, signAgentRequest, signHumanRequest, toQueryString, type AgentKey } from '../../sdk/index.js';
import { exampleOf } from '../../src/platform/openapi/examples.js';
import { createTestApp, TEST_API_KEY, TEST_OPS_TOKEN, TEST_SECRET, type TestApp } from '../helpers/app.js';
import { fuzzRuns } from '../helpers/fuzz.js';
import type { Json } from '../helpers/json.js';

/**
 * A property-based run over the OpenAPI document: every operation of /openapi.json, with cases generated from
 * its parameters and request body (the documented examples, and mutations of them), sent unsigned and with each
 * credential the document names (a human signature made with the SDK, a joined bot's Ed25519 signature, the API
 * key, the operations token). For every answer: no 5xx, the status is one the operation documents, and the body
 * validates (ajv, JSON Schema 2020-12) against the schema the document gives for that status.
 * Smoke count in `npm test`, full count in `npm run test:fuzz`. The site's and the console's routes are hidden
 * from the document: page-conformance.test.ts fuzzes them from the schemas the app declares.
 */

const RUNS = fuzzRuns(3000, 150);
const SEED = process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {};

interface Operation {
  method: string;
  path: string;
  op: Json;
}

let t: TestApp;
let doc: Json;
const operations: Operation[] = [];
let bot: AgentKey;
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats.default(ajv);
const validators = new Map<string, ReturnType<typeof ajv.compile>>();

/** The document with its component references made absolute, so each response schema compiles on its own. */
function absoluteRefs(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/components/', '"openapi.json#/components/'));
}

const junk = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('st_unknown0000000000', `bot_${'0'.repeat(32)}`, '0'.repeat(64), '-1', 'null', '%00', '..', 'a'.repeat(300)),
);

const caseArb = fc.record({
  index: fc.nat(),
  credential: fc.constantFrom('none', 'human', 'agent', 'api-key', 'operations', 'document'),
  paramJunk: fc.array(fc.option(junk, { nil: undefined, freq: 3 }), { minLength: 4, maxLength: 4 }),
  body: fc.constantFrom('example', 'example', 'none', 'mutated'),
  extra: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
  drop: fc.nat(),
});

function parameterValue(parameter: Json): string {
  const value = parameter.example ?? exampleOf(parameter.schema, doc.components.schemas);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

describe('the service answers as its OpenAPI document says (every operation, generated cases)', () => {
  before(async () => {
    t = await createTestApp({
      RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '1000000000',
      RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '1000000000',
      RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '1000000000',
    });
    doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    ajv.addSchema({
      $id: 'openapi.json',
      components: absoluteRefs({ schemas: doc.components.schemas, responses: doc.components.responses }),
    });
    for (const [path, ops] of Object.entries(doc.paths as Json))
      for (const [method, op] of Object.entries(ops as Json)) operations.push({ method: method.toUpperCase(), path, op: op as Json });
    bot = generateAgentKey();
    const join = { publicKey: bot.publicKey, name: 'Conformance bot' };
    const joined = await t.app.inject({
      method: 'POST',
      url: '/v1/agents/join',
      headers: {
        'content-type': 'application/json',
        ...signAgentRequest({ key: bot, aud: 'svc', method: 'POST', path: '/v1/agents/join', body: join }),
      },
      payload: JSON.stringify(join),
    });
    assert.equal(joined.statusCode, 202, joined.body);
  });
  after(() => t.close());

  test('the document has every operation the fuzzer walks', () => {
    assert.ok(operations.length >= 97, `${operations.length} operations`);
  });

  test('no 5xx, no undocumented status, no body outside its documented schema', async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ index, credential, paramJunk, body: bodyKind, extra, drop }) => {
        const { method, path, op } = operations[index % operations.length]!;
        const parameters = (op.parameters ?? []) as Json[];
        let i = 0;
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
          const parameter = parameters.find((p) => p.in === 'path' && p.name === name) ?? {};
          const value = paramJunk[i++] ?? parameterValue(parameter);
          // a segment of only dots cannot be sent as one: URL parsers remove it (as `.`, `..` or `%2E`), so the
          // request would be another path's; junk that is only dots is sent with a character after it
          return encodeURIComponent(/^\.{1,2}$/.test(value) ? `${value}_` : value);
        });
        const query: Record<string, string> = {};
        for (const p of parameters.filter((p) => p.in === 'query' && (p.required || drop % 2 === 0))) query[p.name] = parameterValue(p);
        if (paramJunk[3] !== undefined && parameters.some((p) => p.in === 'query')) {
          const named = parameters.filter((p) => p.in === 'query');
          query[named[drop % named.length]!.name] = paramJunk[3];
        }
        const media = op.requestBody?.content?.['application/json'];
        let body: unknown;
        if (media && bodyKind !== 'none') {
          body = structuredClone(media.example ?? exampleOf(media.schema, doc.components.schemas));
          if (bodyKind === 'mutated' && body && typeof body === 'object') {
            const keys = Object.keys(body);
            if (keys.length) delete (body as Json)[keys[drop % keys.length]!];
            Object.assign(body as Json, extra);
          }
          if (credential === 'agent' && body && typeof body === 'object' && 'botId' in body) (body as Json).botId = bot.botId;
        }
        const security = (op.security ?? []) as Json[];
        const kind = credential === 'document' ? (Object.keys(security.find((s) => Object.keys(s).length) ?? {})[0] ?? 'none') : credential;
        const headers: Record<string, string> = body !== undefined ? { 'content-type': 'application/json' } : {};
        if (kind === 'human' || kind === 'humanSignature')
          Object.assign(
            headers,
            signHumanRequest({ secret: TEST_SECRET, method, path: url, ...(method === 'GET' ? { query } : { body }) }),
          );
        if (kind === 'agent' || kind === 'agentSignature')
          Object.assign(headers, signAgentRequest({ key: bot, aud: 'svc', method, path: url, body }));
        if (kind === 'api-key' || kind === 'publicApiKey') headers['x-api-key'] = TEST_API_KEY;
        if (kind === 'operations' || kind === 'operationsToken') headers.authorization = `Bearer ${TEST_OPS_TOKEN}`;

        const target = `${url}${toQueryString(query)}`;
        const answer = await t.app.inject({
          method: method as 'GET',
          url: target,
          headers,
          ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
        });
        const what = `${method} ${target.slice(0, 200)} (${path}, ${kind}, ${bodyKind} body) → ${answer.statusCode} ${answer.body.slice(0, 300)}`;
        seen.set(`${answer.statusCode}`, (seen.get(`${answer.statusCode}`) ?? 0) + 1);
        assert.ok(answer.statusCode < 500, what);
        const documented = (op.responses as Json)[String(answer.statusCode)];
        assert.ok(documented, `undocumented status: ${what}`);
        const resolved = documented.$ref ? doc.components.responses[documented.$ref.split('/').pop()] : documented;
        const schema = resolved.content?.['application/json']?.schema;
        if (!schema || method === 'HEAD') return;
        const key = JSON.stringify(schema);
        const validate = validators.get(key) ?? ajv.compile(absoluteRefs(schema) as object);
        validators.set(key, validate);
        assert.ok(validate(answer.json()), `body outside its schema: ${ajv.errorsText(validate.errors)}: ${what}`);
      }),
      { numRuns: RUNS, includeErrorInReport: true, ...SEED },
    );
    console.error(
      `conformance fuzz: ${RUNS} cases over ${operations.length} operations; statuses ${JSON.stringify(Object.fromEntries(seen))}`,
    );
  });
});
