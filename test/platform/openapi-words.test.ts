import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openapiDocument } from '../../scripts/openapi-document.js';
import { statusDescription } from '../../src/platform/openapi/responses.js';
import type { Json } from '../helpers/json.js';

/**
 * The words of the OpenAPI document, as a client developer reads them: every operation says what it does, who may
 * call it and what it answers (beyond its summary); every success status says what it means on that operation;
 * every named record says what it is and shows an example; and every example in the document is valid against
 * its own schema (Ajv, JSON Schema 2020-12, the document's components resolvable) and is no placeholder.
 */

const doc = (await openapiDocument()) as Json;
const schemas = doc.components.schemas as Json;

const operations = Object.entries(doc.paths as Json).flatMap(([path, ops]) =>
  Object.entries(ops as Json).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op: op as Json })),
);

/** A response as written in the operation or, for a `$ref`, in components.responses. */
const resolve = (answer: Json): Json => (answer.$ref ? doc.components.responses[answer.$ref.split('/').pop()] : answer);

const successes = operations.flatMap(({ name, op }) =>
  Object.entries(op.responses as Json)
    .filter(([status]) => Number(status) < 300)
    .map(([status, answer]) => ({ name: `${name} ${status}`, status: Number(status), answer: resolve(answer as Json) })),
);

/** Every example of the document with the schema it illustrates. */
const examples: { where: string; schema: unknown; value: unknown }[] = [
  ...Object.entries(schemas).flatMap(([title, schema]) =>
    ((schema as Json).examples ?? []).map((value: unknown, i: number) => ({
      where: `components.schemas.${title}.examples[${i}]`,
      schema,
      value,
    })),
  ),
  ...Object.entries((doc.components.parameters ?? {}) as Json)
    .filter(([, p]) => (p as Json).example !== undefined)
    .map(([name, p]) => ({ where: `components.parameters.${name}`, schema: (p as Json).schema, value: (p as Json).example })),
  ...Object.entries(doc.components.responses as Json).flatMap(([name, r]) =>
    Object.entries(((r as Json).content ?? {}) as Json)
      .filter(([, media]) => (media as Json).example !== undefined)
      .map(([type, media]) => ({
        where: `components.responses.${name} ${type}`,
        schema: (media as Json).schema,
        value: (media as Json).example,
      })),
  ),
  ...operations.flatMap(({ name, op }) => [
    ...Object.entries((op.requestBody?.content ?? {}) as Json)
      .filter(([, media]) => (media as Json).example !== undefined)
      .map(([type, media]) => ({ where: `${name} body ${type}`, schema: (media as Json).schema, value: (media as Json).example })),
    ...Object.entries(op.responses as Json).flatMap(([status, answer]) =>
      Object.entries(((answer as Json).content ?? {}) as Json)
        .filter(([, media]) => (media as Json).example !== undefined)
        .map(([type, media]) => ({ where: `${name} ${status} ${type}`, schema: (media as Json).schema, value: (media as Json).example })),
    ),
  ]),
];

/** What the document says of a success status when the route says nothing of its own. */
const generic = new Set(
  [200, 201, 202, 204].flatMap((status) =>
    ['GET', 'POST'].map((method) =>
      statusDescription(status, { method, auth: undefined, rateLimited: true, hasPathParams: false, readCache: false, answers: {} }),
    ),
  ),
);

/** Every string inside an example, with where it is. */
function strings(value: unknown, at: string): { at: string; text: string }[] {
  if (typeof value === 'string') return [{ at, text: value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}/${i}`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, `${at}/${k}`));
  return [];
}

describe('the words of the OpenAPI document', () => {
  test(`each of the ${operations.length} operations has a description of its own, beyond its summary`, () => {
    assert.ok(operations.length >= 100);
    for (const { name, op } of operations) {
      assert.equal(typeof op.description, 'string', `${name} has a description`);
      assert.notEqual(op.description.trim(), String(op.summary).trim(), `${name}: the description is not the summary`);
      assert.ok(op.description.length >= 120, `${name}: the description says who may call it, the rules and the answer`);
    }
  });

  test(`each of the ${successes.length} success responses says what its status means on its operation`, () => {
    assert.ok(successes.length >= 100);
    for (const { name, answer } of successes) {
      assert.equal(typeof answer.description, 'string', name);
      assert.ok(!generic.has(answer.description), `${name}: "${answer.description}" is the generic sentence`);
    }
    const join = doc.paths['/v1/agents/join'].post.responses;
    assert.notEqual(join['200'].description, join['202'].description, 'two statuses of one operation say different things');
  });

  test(`each of the ${Object.keys(schemas).length} named schemas has a description and an example`, () => {
    assert.ok(Object.keys(schemas).length >= 180);
    for (const [title, schema] of Object.entries(schemas)) {
      assert.ok(typeof (schema as Json).description === 'string' && (schema as Json).description.length > 10, `${title} has a description`);
      assert.ok(Array.isArray((schema as Json).examples) && (schema as Json).examples.length > 0, `${title} has an example`);
    }
  });

  test('a record keeps its own example where a route answers it and where another record holds it', () => {
    const bot = schemas.Bot.examples[0];
    assert.deepEqual(doc.paths['/v1/agents/verify'].post.responses['202'].content['application/json'].example, bot);
    assert.match(bot.botId, /^bot_[0-9a-f]{32}$/);
    const card = schemas.StoryCard.examples[0];
    assert.deepEqual(schemas.FeedPage.examples[0].items[0], card);
    assert.match(card.id, /^st_[A-Za-z0-9_-]{16}$/, 'a story id in the form the service makes');
    assert.deepEqual(schemas.Amount.examples[0], { display: '12.5', base: '12500000000000000000' });
  });

  test(`each of the ${examples.length} examples of the document validates against its schema`, () => {
    assert.ok(examples.length >= 350);
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'openapi.json', components: doc.components });
    const absolute = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'));
    const invalid = examples.flatMap(({ where, schema, value }) => {
      const validate = ajv.compile(absolute(schema));
      return validate(value) ? [] : [`${where}: ${ajv.errorsText(validate.errors)}`];
    });
    assert.deepEqual(invalid, []);
  });

  test('no example holds a placeholder: the word "example" or one letter repeated', () => {
    const placeholders = examples
      .flatMap(({ where, value }) => strings(value, where))
      .filter(({ text }) => text.trim().toLowerCase() === 'example' || /^([A-Za-z])\1+$/.test(text))
      .map(({ at, text }) => `${at} = ${text}`);
    assert.deepEqual(placeholders, []);
  });
});
