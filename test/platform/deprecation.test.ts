import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyPluginAsync } from 'fastify';
import { registerDeprecations, type RouteDeprecation } from '../../src/platform/deprecation.js';
import { appError } from '../../src/platform/errors.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const ORIGIN = 'https://front.example';

// What the headers must say for this deprecation, written out by hand: 2027-03-01T00:00:00Z is 1803859200 seconds
// after the epoch, and 2027-09-01 a Wednesday.
const RETIRING: RouteDeprecation = { since: '2027-03-01', sunset: '2027-09-01', link: '/docs/changes#retiring' };
const DEPRECATION = '@1803859200';
const SUNSET = 'Wed, 01 Sep 2027 00:00:00 GMT';
const LINK = '</docs/changes#retiring>; rel="deprecation"';

/** Test-only routes: one being retired (a read, a write that refuses, one with a Link of its own), one that is not. */
const routes: FastifyPluginAsync = async (app) => {
  const query = { type: 'object', additionalProperties: false, properties: { n: { type: 'integer' } } };
  app.get(
    '/v1/test/retiring',
    { schema: { operationId: 'testRetiring', querystring: query }, config: { deprecated: RETIRING } },
    async () => ({ ok: true }),
  );
  app.post('/v1/test/retiring', { config: { deprecated: RETIRING } }, async () => {
    throw appError('NOT_FOUND', { message: 'nothing here' });
  });
  app.get(
    '/v1/test/retiring-paged',
    { schema: { operationId: 'testRetiringPaged' }, config: { deprecated: RETIRING } },
    async (_req, reply) => reply.header('link', '</v1/test/retiring-paged?page=2>; rel="next"').send({ ok: true }),
  );
  app.get('/v1/test/current', { schema: { operationId: 'testCurrent' } }, async () => ({ ok: true }));
};

describe('a deprecated route: Deprecation, Sunset and Link on every answer, deprecated in the OpenAPI document', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ API_ORIGIN: ORIGIN }, undefined, [routes]);
  });
  after(() => t.close());

  test('a read, its HEAD, and a refused request all carry the three headers', async () => {
    for (const request of [
      { method: 'GET', url: '/v1/test/retiring', status: 200 },
      { method: 'HEAD', url: '/v1/test/retiring', status: 200 },
      { method: 'GET', url: '/v1/test/retiring?unknown=1', status: 400 },
      { method: 'POST', url: '/v1/test/retiring', status: 404 },
    ] as const) {
      const res = await t.app.inject({ method: request.method, url: request.url });
      assert.equal(res.statusCode, request.status, `${request.method} ${request.url}: ${res.body}`);
      assert.equal(res.headers.deprecation, DEPRECATION, `${request.method} ${request.url}`);
      assert.equal(res.headers.sunset, SUNSET, `${request.method} ${request.url}`);
      assert.equal(res.headers.link, LINK, `${request.method} ${request.url}`);
    }
  });

  test("a route's own Link is kept beside the deprecation link; a route not deprecated gets none of the headers", async () => {
    const paged = await t.app.inject({ method: 'GET', url: '/v1/test/retiring-paged' });
    assert.equal(paged.headers.link, `</v1/test/retiring-paged?page=2>; rel="next", ${LINK}`);
    const current = await t.app.inject({ method: 'GET', url: '/v1/test/current' });
    assert.equal(current.statusCode, 200);
    for (const name of ['deprecation', 'sunset', 'link']) assert.equal(current.headers[name], undefined, name);
  });

  test('browsers on an allowed origin may read them (CORS)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/test/retiring', headers: { origin: ORIGIN } });
    const exposed = String(res.headers['access-control-expose-headers'])
      .toLowerCase()
      .split(/\s*,\s*/);
    for (const name of ['deprecation', 'sunset', 'link']) assert.ok(exposed.includes(name), `${name} in ${exposed.join(', ')}`);
  });

  test('the OpenAPI document marks the deprecated operations, and only them', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { deprecated?: boolean; responses: Record<string, { headers?: Record<string, unknown> }> }>>;
      components: { headers: Record<string, unknown> };
    };
    // every answer of a deprecated operation declares the three headers; no other operation declares them
    for (const [status, answer] of Object.entries(doc.paths['/v1/test/retiring']!.post!.responses))
      assert.deepEqual(
        ['deprecation', 'sunset', 'link'].map((name) => answer.headers?.[name]),
        ['Deprecation', 'Sunset', 'DeprecationLink'].map((c) => ({ $ref: `#/components/headers/${c}` })),
        `POST /v1/test/retiring ${status}`,
      );
    assert.ok(doc.components.headers.Sunset);
    const current = Object.values(doc.paths['/v1/test/current']!.get!.responses);
    assert.ok(current.length > 0);
    for (const answer of current) assert.equal(answer.headers?.deprecation, undefined);
    assert.equal(doc.paths['/v1/test/retiring']?.get?.deprecated, true);
    assert.equal(doc.paths['/v1/test/retiring']?.post?.deprecated, true);
    assert.equal(doc.paths['/v1/test/current']?.get?.deprecated, undefined);
    // no route of the service itself is being retired
    const deprecated = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.deprecated)
        .map(([method]) => `${method} ${path}`),
    );
    assert.deepEqual(deprecated.sort(), ['get /v1/test/retiring', 'get /v1/test/retiring-paged', 'post /v1/test/retiring']);
  });
});

describe('a deprecation that breaks the policy stops the service from starting', () => {
  /** Declares one route with `deprecated` on an app with the hook; answers what declaring it threw. */
  async function declare(deprecated: RouteDeprecation): Promise<unknown> {
    const app = Fastify();
    registerDeprecations(app);
    try {
      app.get('/v1/test/bad', { config: { deprecated } }, async () => ({}));
      await app.ready();
      return undefined;
    } catch (err) {
      return err;
    } finally {
      await app.close();
    }
  }

  test('a sunset less than 180 days after the deprecation', async () => {
    const err = await declare({ since: '2027-03-01', sunset: '2027-08-27', link: '/docs' });
    assert.match(String(err), /GET \/v1\/test\/bad: config\.deprecated\.sunset must be at least 180 days after since/);
    assert.equal(await declare({ since: '2027-03-01', sunset: '2027-08-28', link: '/docs' }), undefined);
  });

  test('a date that is not ISO-8601, a link that is neither an http(s) URL nor a path', async () => {
    assert.match(String(await declare({ since: '03/01/2027', link: '/docs' })), /config\.deprecated\.since is not an ISO-8601 date/);
    assert.match(String(await declare({ since: '2027-03-01', sunset: 'soon', link: '/docs' })), /config\.deprecated\.sunset/);
    for (const link of ['docs', 'javascript:alert(1)', '/docs>; rel="next', 'https://x.example/a b'])
      assert.match(String(await declare({ since: '2027-03-01', link })), /config\.deprecated\.link must be/, link);
    // without a sunset: deprecated, staying within /v1
    assert.equal(await declare({ since: '2027-03-01', link: 'https://news.example/docs/changes' }), undefined);
  });
});
