import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { agentSigning, createApiClient, generateAgentKey, humanSigning, signHumanRequest, toQueryString } from '../../sdk/index.js';
import { GENERATED_TYPES_FILE, generatedTypes } from '../../scripts/openapi-types.js';
import { openapiDocument } from '../../scripts/openapi-document.js';
import { ERROR_CATALOGUE } from '../../src/platform/error-catalogue.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../helpers/app.js';
import type { Json } from '../helpers/json.js';

/**
 * The OpenAPI document as client developers use it: the SDK's generated types are the document's (the checked-in
 * file is regenerated and compared), every operation is named and documented, and the generated client with the
 * signing middleware talks to the real service.
 */
describe('the OpenAPI document and the client generated from it', () => {
  let doc: Json;
  let t: TestApp;
  before(async () => {
    doc = (await openapiDocument()) as Json;
    t = await createTestApp();
    await t.listen();
  });
  after(() => t.close());

  const operations = () =>
    Object.entries(doc.paths as Json).flatMap(([path, ops]) =>
      Object.entries(ops as Json).map(([method, op]) => ({ path, method, op: op as Json })),
    );

  test(`${GENERATED_TYPES_FILE} is what openapi-typescript generates from the document (npm run sdk:generate)`, async () => {
    const expected = await generatedTypes(doc);
    assert.ok(readFileSync(GENERATED_TYPES_FILE, 'utf8') === expected, `${GENERATED_TYPES_FILE} is out of date: run npm run sdk:generate`);
  });

  test('every operation has a unique operationId, a security requirement and a description of each status', () => {
    const ids = new Set<string>();
    for (const { path, method, op } of operations()) {
      assert.match(op.operationId ?? '', /^[a-z][A-Za-z]+$/, `${method} ${path}`);
      assert.ok(!ids.has(op.operationId), `operationId ${op.operationId} twice`);
      ids.add(op.operationId);
      assert.ok(Array.isArray(op.security), `${method} ${path} states its security`);
      for (const [status, answer] of Object.entries(op.responses as Json)) {
        const resolved = (answer as Json).$ref ? doc.components.responses[(answer as Json).$ref.split('/').pop()] : answer;
        assert.notEqual(resolved.description, 'Default Response', `${method} ${path} ${status}`);
        if (Number(status) >= 400 && resolved.content && path !== '/readyz')
          assert.equal(resolved.content['application/json'].schema.$ref, '#/components/schemas/ApiError');
      }
    }
    assert.ok(ids.size >= 97);
  });

  test('records and requests are components, referenced: the error shape is written once', () => {
    const schemas = doc.components.schemas as Json;
    for (const name of [
      'Story',
      'StoryCard',
      'Comment',
      'Flag',
      'ConsensusSnapshot',
      'LedgerEvent',
      'Payout',
      'Settlement',
      'ReviewCase',
      'Amount',
      'ApiError',
    ])
      assert.ok(schemas[name], `components.schemas.${name}`);
    const text = JSON.stringify(doc.paths);
    assert.equal(text.includes('"requestId"'), false, 'no inline copy of the error shape in the paths');
    assert.ok((text.match(/"\$ref"/g) ?? []).length > 500);
    const story = (doc.paths as Json)['/v1/stories/{id}'].get;
    assert.deepEqual(story.security, [{}, { humanSignature: [] }], 'an optional signed reader');
    assert.deepEqual((doc.paths as Json)['/v1/candidates/{hash}/status'].get.security, [{ publicApiKey: [] }, { publicApiKeyBearer: [] }]);
  });

  const resolve = (answer: Json): Json => (answer.$ref ? doc.components.responses[answer.$ref.split('/').pop()] : answer);

  test('each shared error response shows one example whose code the service answers with that status', () => {
    const responses = doc.components.responses as Json;
    const statusOf = (name: string) =>
      Number(
        operations()
          .flatMap(({ op }) => Object.entries(op.responses as Json))
          .find(([, answer]) => (answer as Json).$ref === `#/components/responses/${name}`)?.[0],
      );
    for (const [name, answer] of Object.entries(responses)) {
      const example = (answer as Json).content['application/json'].example as Json;
      const status = statusOf(name);
      assert.equal((ERROR_CATALOGUE as Json)[example.code]?.status, status, `${name} (${status}) shows ${example.code}`);
      assert.ok(example.message && example.requestId, name);
    }
    const codes = (name: string) => responses[name].content['application/json'].example.code;
    assert.equal(codes('NotFound'), 'NOT_FOUND');
    assert.equal(codes('HumanTooManyRequests'), 'RATE_LIMITED');
    assert.equal(codes('HumanUnauthorized'), 'SIGNATURE_INVALID');
    assert.equal(codes('AgentUnauthorized'), 'AGENT_SIGNED_HEADERS_INVALID');
    assert.equal(codes('ServiceUnavailable'), 'DATABASE_UNAVAILABLE');
    assert.equal(codes('BadRequest'), 'VALIDATION_FAILED');
  });

  test('the error body is ApiError (no type named Error shadows the global one): code and message always there', () => {
    const schemas = doc.components.schemas as Json;
    assert.equal(schemas.Error, undefined);
    assert.deepEqual([...schemas.ApiError.required].sort(), ['code', 'error', 'message', 'requestId']);
    assert.equal(schemas.ApiError.properties.code.$ref, '#/components/schemas/ErrorCode');
    assert.match(schemas.ErrorCode.description, /grows within \/v1/);
    assert.doesNotMatch(readFileSync(GENERATED_TYPES_FILE, 'utf8'), /^\s+Error: \{/m);
  });

  test('every response declares the headers it carries: x-request-id always, retry-after on 429 and 503, x-read-after on writes', () => {
    for (const { path, method, op } of operations())
      for (const [status, answer] of Object.entries(op.responses as Json)) {
        const headers = (resolve(answer as Json).headers ?? {}) as Json;
        const where = `${method} ${path} ${status}`;
        assert.deepEqual(headers['x-request-id'], { $ref: '#/components/headers/RequestId' }, where);
        if (status === '429' || status === '503') assert.ok(headers['retry-after'], where);
        const write = method !== 'get' && Number(status) < 300;
        assert.equal(Boolean(headers['x-read-after']), write, where);
        assert.equal(headers.deprecation, undefined, where);
      }
    const headers = doc.components.headers as Json;
    assert.deepEqual(Object.keys(headers).sort(), [
      'IdempotentReplayed',
      'RateLimit',
      'RateLimit-Policy',
      'ReadAfter',
      'ReadCache',
      'RequestId',
      'RetryAfter',
    ]);
    assert.equal(
      resolve((doc.paths as Json)['/v1/feed'].get.responses['200']).headers['x-read-cache'].$ref,
      '#/components/headers/ReadCache',
    );
  });

  test('the enums of answers say they may grow (x-extensible-enum); enums only requests use stay closed', () => {
    const schemas = doc.components.schemas as Json;
    assert.deepEqual(schemas.ErrorCode['x-extensible-enum'], schemas.ErrorCode.enum);
    assert.deepEqual(schemas.StoryCard.properties.state['x-extensible-enum'], schemas.StoryCard.properties.state.enum);
    assert.ok((doc.components.headers as Json).ReadCache.schema['x-extensible-enum']);
    const mode = ((doc.paths as Json)['/v1/feed'].get.parameters as Json[]).find((p) => p.name === 'mode');
    assert.ok(mode?.schema.enum.length > 1);
    assert.equal(mode?.schema['x-extensible-enum'], undefined);
    assert.match(String((doc.info as Json).description), /x-extensible-enum/);
  });

  test('every tag an operation uses is declared at the top, with a description', () => {
    const declared = new Map((doc.tags as Json[]).map((t) => [t.name, t.description]));
    const used = new Set(operations().flatMap(({ op }) => op.tags as string[]));
    assert.deepEqual([...declared.keys()].sort(), [...used].sort());
    for (const [name, description] of declared) assert.ok(String(description).length > 20, name);
  });

  test('on the reads with an optional signed reader, actorId and verified come together: the document says so, the service holds to it', async () => {
    for (const path of ['/v1/feed', '/v1/stories/{id}']) {
      const op = (doc.paths as Json)[path].get;
      assert.deepEqual(op['x-dependent-required'], {
        actorId: ['verified'],
        verified: ['actorId'],
        linkedHumanId: ['actorId', 'verified'],
      });
      for (const name of ['actorId', 'verified', 'linkedHumanId'])
        assert.match((op.parameters as Json[]).find((p) => p.name === name)?.description, /come together/, `${path} ${name}`);
    }
    const read = (query: Record<string, string>, signed: boolean) =>
      t.app.inject({
        method: 'GET',
        url: `/v1/feed${toQueryString(query)}`,
        headers: signed ? signHumanRequest({ secret: TEST_SECRET, method: 'GET', path: '/v1/feed', query }) : {},
      });
    const alone = await read({ actorId: 'reader-9' }, true);
    assert.equal(alone.statusCode, 400, alone.body);
    assert.deepEqual(
      alone.json().details.map((d: Json) => d.path),
      ['/querystring/verified'],
    );
    assert.equal((await read({ verified: 'true' }, true)).json().details[0].path, '/querystring/actorId');
    assert.equal((await read({ actorId: 'reader-9' }, false)).statusCode, 401);
    assert.equal((await read({ actorId: 'reader-9', verified: 'false' }, true)).statusCode, 200);
    assert.equal((await read({}, false)).statusCode, 200);
  });

  test('the generated client signs for a person and for a bot with its middleware, and types the answers', async () => {
    const reader = createApiClient({ baseUrl: t.baseUrl });
    reader.use(humanSigning({ secret: TEST_SECRET }));
    const followed = await reader.POST('/v1/users/me/topics', { body: { actorId: 'reader-7', verified: false, topic: 'politics' } });
    assert.equal(followed.response.status, 202, JSON.stringify(followed.error));
    const topics = await reader.GET('/v1/users/me/topics', { params: { query: { actorId: 'reader-7', verified: 'false' } } });
    assert.equal(topics.response.status, 200, JSON.stringify(topics.error));
    assert.deepEqual(
      topics.data?.items.map((i) => i.topic),
      ['politics'],
    );

    const forger = createApiClient({ baseUrl: t.baseUrl });
    forger.use(humanSigning({ secret: 'not-the-secret' }));
    const refused = await forger.GET('/v1/users/me/topics', { params: { query: { actorId: 'reader-7', verified: 'false' } } });
    assert.equal(refused.response.status, 401);
    assert.equal(refused.error?.code, 'SIGNATURE_INVALID');

    const key = generateAgentKey();
    const bot = createApiClient({ baseUrl: t.baseUrl });
    bot.use(agentSigning({ key }));
    const joined = await bot.POST('/v1/agents/join', { body: { publicKey: key.publicKey, name: 'Typed client bot' } });
    assert.equal(joined.response.status, 202, JSON.stringify(joined.error));
    assert.equal((joined.data as Json | undefined)?.botId, key.botId);

    const unsigned = await createApiClient({ baseUrl: t.baseUrl }).GET('/v1/feed', { params: { query: { mode: 'recent' } } });
    assert.equal(unsigned.response.status, 200);
    assert.ok(Array.isArray(unsigned.data?.items));
  });
});
