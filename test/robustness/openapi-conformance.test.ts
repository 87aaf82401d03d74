import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { generateAgentKey, signAgentRequest, signHumanRequest, toQueryString, type AgentKey } from '../../sdk/index.js';
import { exampleOf } from '../../src/platform/openapi/examples.js';
import { RESPONSE_HEADERS } from '../../src/platform/openapi/headers.js';
import { createTestApp, TEST_API_KEY, TEST_OPS_TOKEN, TEST_SECRET, type TestApp } from '../helpers/app.js';
import { fuzzRuns } from '../helpers/fuzz.js';
import type { Json } from '../helpers/json.js';
import { schemaArbitrary } from '../helpers/schema-arbitrary.js';

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
const POSITIVE_RUNS = fuzzRuns(3000, 200);
const ADMIN = 'conformance-admin';
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
      // the positive-data run signs some requests as this person, so that admin routes get past their allowlists
      CONTENT_ADMIN_IDS: ADMIN,
      REWARDS_ADMIN_IDS: ADMIN,
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
        // every header of the document's header rules that the answer carries is declared on its response
        for (const { name } of RESPONSE_HEADERS)
          if (answer.headers[name] !== undefined) assert.ok(resolved.headers?.[name], `${name} sent but not declared: ${what}`);
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

  /**
   * Positive data: requests every schema of the operation allows (path, query and header parameters and the body,
   * generated from the document's schemas and checked against them with Ajv), sent with the credential the
   * operation's security names. The service may refuse one only by a rule it documents: never a 5xx, and never 400
   * VALIDATION_FAILED, which says the request is outside its schema, unless one of DOCUMENTED_REFUSALS explains it.
   */
  test('positive data: a request the document allows is accepted, or refused by a documented rule, never as invalid', async () => {
    const components = doc.components.schemas as Json;
    const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
    const allows = (schema: unknown, value: unknown) => {
      const key = JSON.stringify(schema);
      const validate = compiled.get(key) ?? ajv.compile(absoluteRefs(schema) as object);
      compiled.set(key, validate);
      return validate(value);
    };
    const seen = new Map<string, number>();
    let skipped = 0;
    const READER = ['actorId', 'verified', 'linkedHumanId'];
    const sent = (p: Json) => ['path', 'query'].includes(p.in) || p.name === 'idempotency-key';
    const resolved = (op: Json) =>
      ((op.parameters ?? []) as Json[]).map((p) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p));
    const isOptionalReader = (op: Json) =>
      ((op.security ?? []) as Json[]).some((s) => Object.keys(s).length === 0) &&
      ((op.security ?? []) as Json[]).some((s) => 'humanSignature' in s);
    // one arbitrary per operation: its parameters (the reader's pair both present, dropped below for a public
    // read) and its body, from the document's schemas
    const requestArb = fc.oneof(
      ...operations.map((operation, index) => {
        const parameters = resolved(operation.op).filter(sent);
        const reader = isOptionalReader(operation.op);
        const media = operation.op.requestBody?.content?.['application/json'];
        return fc.record({
          index: fc.constant(index),
          signedReader: fc.boolean(),
          // who signs a human request: the generated actor as generated, or the admin with no linked human (a
          // generated linkedHumanId is bound to nobody: 403 LINKED_HUMAN_NOT_BOUND would hide every later rule)
          actor: fc.constantFrom('generated', 'unlinked', 'admin'),
          params: fc.record(Object.fromEntries(parameters.map((p) => [`${p.in}:${p.name}`, schemaArbitrary(p.schema, components)])), {
            requiredKeys: parameters
              .filter((p) => p.required || p.in === 'path' || (reader && ['actorId', 'verified'].includes(p.name)))
              .map((p) => `${p.in}:${p.name}`),
          }),
          body: media ? fc.option(schemaArbitrary(media.schema, components), { nil: undefined, freq: 8 }) : fc.constant(undefined),
        });
      }),
    );
    await fc.assert(
      fc.asyncProperty(requestArb, async ({ index, signedReader, actor, params, body: generatedBody }) => {
        const { method, path, op } = operations[index]!;
        const parameters = resolved(op);
        const security = (op.security ?? []) as Json[];
        const schemes = security.flatMap((s) => Object.keys(s));
        const optionalReader = isOptionalReader(op);
        const asReader = !optionalReader || signedReader;
        const generated = { params: structuredClone(params), body: structuredClone(generatedBody) };
        const values = generated.params as Record<string, unknown>;
        const bodyFields = generated.body && typeof generated.body === 'object' ? (generated.body as Json) : undefined;
        if (actor !== 'generated') {
          delete values['query:linkedHumanId'];
          if (bodyFields && 'actorId' in bodyFields) delete bodyFields.linkedHumanId;
        }
        if (actor === 'admin') {
          if (values['query:actorId'] !== undefined) values['query:actorId'] = ADMIN;
          if (bodyFields && 'actorId' in bodyFields && 'verified' in bodyFields) bodyFields.actorId = ADMIN;
        }
        // the private rewards reads are the signed caller's own (403 USER_MISMATCH otherwise, docs/api-conventions.md)
        if (values['query:userId'] !== undefined && values['query:actorId'] !== undefined) values['query:userId'] = values['query:actorId'];
        // the reader's pair, when it is one: both, or (a public read) none (x-dependent-required)
        if (optionalReader && !asReader) for (const name of READER) delete values[`query:${name}`];
        const body = generated.body;
        const media = op.requestBody?.content?.['application/json'];
        if (kindOf(schemes) === 'agent' && body && typeof body === 'object' && 'botId' in body) (body as Json).botId = bot.botId;
        const outside = [
          ...parameters
            .filter((p) => values[`${p.in}:${p.name}`] !== undefined)
            .filter((p) => !allows(p.schema, values[`${p.in}:${p.name}`]))
            .map((p) => p.name),
          ...(media && body !== undefined && !allows(media.schema, body) ? ['body'] : []),
          ...(media && body === undefined && op.requestBody.required ? ['body'] : []),
        ];
        // a value the arbitraries could not hold to every keyword (not, oneOf, minProperties): not positive data
        if (outside.length) {
          skipped += 1;
          return;
        }
        const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
          const value = text(values[`path:${name}`]);
          return encodeURIComponent(/^\.{1,2}$/.test(value) ? `${value}_` : value);
        });
        const query = Object.fromEntries(
          Object.entries(values)
            .filter(([key, value]) => key.startsWith('query:') && value !== undefined)
            .map(([key, value]) => [key.slice('query:'.length), text(value)]),
        );
        const headers: Record<string, string> = body !== undefined ? { 'content-type': 'application/json' } : {};
        if (values['header:idempotency-key'] !== undefined) headers['idempotency-key'] = String(values['header:idempotency-key']);
        const kind = optionalReader ? (asReader ? 'human' : 'none') : kindOf(schemes);
        if (kind === 'human')
          Object.assign(
            headers,
            signHumanRequest({ secret: TEST_SECRET, method, path: url, ...(method === 'GET' ? { query } : { body }) }),
          );
        if (kind === 'agent') Object.assign(headers, signAgentRequest({ key: bot, aud: 'svc', method, path: url, body }));
        if (kind === 'api-key') headers['x-api-key'] = TEST_API_KEY;
        if (kind === 'operations') headers.authorization = `Bearer ${TEST_OPS_TOKEN}`;
        const target = `${url}${toQueryString(query)}`;
        const answer = await t.app.inject({
          method: method as 'GET',
          url: target,
          headers,
          ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
        });
        const what = `${method} ${target.slice(0, 300)} (${path}, ${kind}) ${body === undefined ? '' : JSON.stringify(body).slice(0, 400)} → ${answer.statusCode} ${answer.body.slice(0, 400)}`;
        const code = answer.statusCode >= 400 ? (answer.json() as Json).code : undefined;
        seen.set(`${answer.statusCode} ${code ?? ''}`.trim(), (seen.get(`${answer.statusCode} ${code ?? ''}`.trim()) ?? 0) + 1);
        assert.ok(answer.statusCode < 500, what);
        assert.ok((op.responses as Json)[String(answer.statusCode)], `undocumented status: ${what}`);
        if (code === 'VALIDATION_FAILED') {
          const documented = documentedRefusal(path, method, answer.json() as Json, body);
          assert.ok(documented, `a request the document allows was refused as invalid: ${what}`);
        }
      }),
      { numRuns: POSITIVE_RUNS, includeErrorInReport: true, endOnFailure: true, ...SEED },
    );
    console.error(
      `positive data: ${POSITIVE_RUNS} cases (${skipped} outside a schema, skipped); answers ${JSON.stringify(Object.fromEntries(seen))}`,
    );
    assert.ok(skipped < POSITIVE_RUNS / 2, `${skipped} of ${POSITIVE_RUNS} generated requests fell outside their schemas`);
  });
});

/** The credential an operation's security names (the first scheme that is one). */
function kindOf(schemes: string[]): 'human' | 'agent' | 'api-key' | 'operations' | 'none' {
  if (schemes.includes('humanSignature')) return 'human';
  if (schemes.includes('agentSignature')) return 'agent';
  if (schemes.includes('publicApiKey')) return 'api-key';
  if (schemes.includes('operationsToken')) return 'operations';
  return 'none';
}

/**
 * The rules the service documents that refuse, as 400 VALIDATION_FAILED, a request its schemas allow: each is a
 * rule no JSON Schema keyword of the document carries (a rule across fields, a reference to a record that must
 * exist, the digits of an amount), written in the route's description and in the page each entry names. A refusal
 * passes when every one of its details is one of its route's rules.
 */
const DOCUMENTED_REFUSALS: { why: string; route: RegExp; detail: RegExp }[] = [
  { why: 'docs/api-conventions.md, "Requests and answers": text the database cannot hold', route: /./, detail: /NUL|surrogate/ },
  {
    why: 'docs/api-conventions.md, "Requests and answers": an object key written with an escape (a free-form object’s key with `"`, `\\` or a control character)',
    route: /./,
    detail: /object keys must be written without escape sequences/,
  },
  {
    why: 'docs/reader-accounts.md: a ROOM topic is a room slug',
    route: /^\/v1\/users\/me\/topics$/,
    detail: /^\/topic: a ROOM topic/,
  },
  {
    why: 'docs/api-conventions.md, "Money": amounts finer than a base unit, rates past 6 decimals; docs/rewards.md: splits sum to 1',
    route: /^\/v1\/rewards\/(policy|settlements\/run|settlements\/preview)$/,
    detail: /^\/(querystring\/)?(totalPoolOrbs|escrowRate|roleSplits)(\/\w+)?: (must be|the role splits)/,
  },
  {
    why: 'docs/governance.md, "Audit chain": from and to are days or instants that exist, and the range does not end before it starts',
    route: /^\/v1\/admin\/audit$/,
    detail: /^\/(from|to): /,
  },
  {
    why: 'docs/reader-accounts.md, "Display names": a name\'s characters, look-alikes of reserved words and the content screening',
    route: /^\/v1\/users\/me\/name$/,
    detail: /^\/name: /,
  },
  {
    why: 'docs/rewards.md, "Review cases": the target of a case must exist',
    route: /^\/v1\/admin\/rewards\/review-cases$/,
    detail: /^\/targetId: no \w+ has this id/,
  },
  {
    why: 'docs/rewards.md, "Review cases": an assignment names the assignee, or escalates',
    route: /^\/v1\/admin\/rewards\/review-cases\/\{caseId\}\/assign$/,
    detail: /^\/assigneeActorId: name the assignee, or escalate/,
  },
  {
    why: 'docs/governance.md: 400 naming each bad change (a parameter it does not know, a value outside its range)',
    route: /^\/v1\/admin\/governance\/proposals$/,
    detail: /^\/changes/,
  },
  {
    why: 'docs/governance.md: the target of a control-plane request fits its action',
    route: /^\/v1\/admin\/control-plane\/requests$/,
    detail: /^\/(target|payload)/,
  },
  {
    why: 'docs/newsroom.md, "Human writes": a comment whose body is white space alone is 400',
    route: /^\/v1\/stories\/\{id\}\/comments(\/\{commentId\})?$/,
    detail: /^\/body: a comment needs more than white space$/,
  },
  {
    why: 'docs/identity.md: a World ID nullifier is a field element, 0x and up to 64 hex',
    route: /^\/v1\/(session\/worldid\/verify|worldid\/verify|human-proof\/verify)$/,
    detail: /^\/nullifier_hash: a World ID nullifier_hash is hex/,
  },
];

function documentedRefusal(path: string, _method: string, answer: Json, _body: unknown): boolean {
  const details = (answer.details ?? []) as Json[];
  return (
    details.length > 0 &&
    details.every((d) =>
      DOCUMENTED_REFUSALS.some((rule) => rule.route.test(path) && rule.detail.test(`${String(d.path)}: ${String(d.message)}`)),
    )
  );
}
