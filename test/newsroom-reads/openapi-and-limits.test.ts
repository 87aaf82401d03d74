import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createReadsTestApp } from '../helpers/newsroom-factory.js';
import type { Json } from '../helpers/json.js';

const READS = [
  '/v1/home',
  '/v1/assistant/orientation',
  '/v1/feed',
  '/v1/search',
  '/v1/modules/developing',
  '/v1/modules/under-review',
  '/v1/modules/ledger',
  '/v1/modules/reward-window',
  '/v1/ledger/events',
  '/v1/rankings/bots',
  '/v1/stories/{id}',
  '/v1/article/{id}',
  '/v1/cluster/{id}',
  '/v1/stories/{storyId}/machine-room',
  '/v1/stories/{id}/assistant-orientation',
  '/v1/stories/{id}/versions',
  '/v1/stories/{id}/sources',
  '/v1/stories/{id}/comments',
  '/v1/stories/{id}/flags',
  '/v1/stories/{id}/consensus',
];

describe('public newsroom reads: OpenAPI and the read rate limit', () => {
  test('the OpenAPI document lists the error catalogue: every code with its status', async () => {
    const t = await createReadsTestApp();
    try {
      const schema = (await t.get<Json>('/openapi.json')).body.components.schemas.ErrorCode;
      assert.ok(
        schema.enum.includes('CURRENT_PACKET_MISMATCH') &&
          schema.enum.includes('INVALID_CURSOR') &&
          schema.enum.includes('VALIDATION_FAILED'),
      );
      assert.equal(schema['x-catalogue'].CURRENT_PACKET_MISMATCH.status, 409);
      assert.equal(schema['x-catalogue'].AGENT_SIGNED_HEADERS_INVALID.status, 401);
      assert.equal(schema.enum.length, Object.keys(schema['x-catalogue']).length);
    } finally {
      await t.close();
    }
  });

  test('every read is documented in /openapi.json as a public GET with a 200 schema', async () => {
    const t = await createReadsTestApp();
    try {
      const doc = (await t.get<Json>('/openapi.json')).body;
      for (const path of READS) {
        const op = doc.paths[path]?.get;
        assert.ok(op, `GET ${path} is documented`);
        // public: `security: []`, or an optional signed reader (`{}` among the alternatives)
        assert.ok(
          op.security.length === 0 || op.security.some((s: Json) => Object.keys(s).length === 0),
          `${path} needs no credentials: ${JSON.stringify(op.security)}`,
        );
        assert.ok(op.responses['200'], `${path} documents its 200 body`);
      }
      const lang = (path: string) => doc.paths[path].get.parameters.find((p: Json) => p.name === 'lang' && p.in === 'query');
      for (const path of [
        '/v1/home',
        '/v1/feed',
        '/v1/search',
        '/v1/stories/{id}',
        '/v1/modules/ledger',
        '/v1/stories/{id}/assistant-orientation',
      ]) {
        assert.deepEqual(lang(path).schema.enum, ['en', 'es', 'fr', 'de', 'zh-Hans'], path);
      }
      const limit = doc.paths['/v1/ledger/events'].get.parameters.find((p: Json) => p.name === 'limit');
      assert.deepEqual([limit.schema.minimum, limit.schema.maximum, limit.schema.default], [1, 50, 20]);
      const searchLimit = doc.paths['/v1/search'].get.parameters.find((p: Json) => p.name === 'limit');
      assert.deepEqual([searchLimit.schema.minimum, searchLimit.schema.maximum], [1, 100]);
    } finally {
      await t.close();
    }
  });

  test('public reads count against the per-IP read limit (429 RATE_LIMITED with retry-after)', async () => {
    const t = await createReadsTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '3' });
    try {
      for (let i = 0; i < 3; i += 1) assert.equal((await t.app.inject('/v1/feed')).statusCode, 200);
      const limited = await t.app.inject('/v1/ledger/events');
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.json().code, 'RATE_LIMITED');
      assert.ok(Number(limited.headers['retry-after']) >= 1);
    } finally {
      await t.close();
    }
  });
});
