import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyRequest } from 'fastify';
import fc from 'fast-check';
import { openapiDocument } from '../../scripts/openapi-document.js';
import { parseAgentHeaders } from '../../src/platform/auth/agent-signature.js';
import { AppError } from '../../src/platform/errors.js';
import { createCursorCodec } from '../../src/platform/cursor.js';
import { validateIdempotencyKey } from '../../src/platform/idempotency.js';
import { fuzzRuns } from '../helpers/fuzz.js';
import type { Json } from '../helpers/json.js';

/**
 * The document's parameters say exactly what the service accepts: a value the schema of a signature header,
 * an idempotency key or a cursor allows is one the service takes, and a value it refuses is one the schema
 * refuses too (the checks are the service's own functions, the schemas the document's).
 */

const RUNS = fuzzRuns(2000, 300);
const ajv = new Ajv2020({ strict: false });
const NOW = 1_767_225_600_000;

/** Text near the edges of the header rules: printable ASCII, a space, control bytes, Latin-1, at lengths around 8 and 200. */
const headerText = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 0, maxLength: 210 }),
  fc.string({ unit: fc.integer({ min: 0x00, max: 0xff }).map((c) => String.fromCharCode(c)), minLength: 6, maxLength: 12 }),
  fc.constantFrom('a'.repeat(7), 'a'.repeat(8), 'a'.repeat(200), 'a'.repeat(201), 'abc def gh', 'abcdefg~', '!abcdefg'),
);

/** Whether parseAgentHeaders finds a fault in `name` among otherwise good headers. */
function agentHeaderRefused(name: string, value: string): boolean {
  const headers: Record<string, string> = {
    'x-agent-timestamp': String(NOW),
    'x-agent-nonce': 'nonce-0001',
    'x-agent-signature': Buffer.alloc(64, 7).toString('base64url'),
    [name]: value,
  };
  try {
    parseAgentHeaders({ headers } as unknown as FastifyRequest, NOW, 300_000);
    return false;
  } catch (err) {
    assert.ok(err instanceof AppError);
    return (err.details ?? []).some((d) => d.header === name);
  }
}

describe("the document's parameters hold exactly what the service accepts", () => {
  let parameters: Json;
  let doc: Json;
  before(async () => {
    doc = (await openapiDocument()) as Json;
    parameters = doc.components.parameters as Json;
  });

  test('x-agent-nonce and x-agent-key-version: schema-valid if and only if the service takes the header', () => {
    const nonce = ajv.compile(parameters.AgentNonce.schema);
    const keyVersion = ajv.compile(parameters.AgentKeyVersion.schema);
    fc.assert(
      fc.property(headerText, (value) => {
        assert.equal(nonce(value), !agentHeaderRefused('x-agent-nonce', value), `x-agent-nonce ${JSON.stringify(value)}`);
      }),
      { numRuns: RUNS },
    );
    fc.assert(
      fc.property(fc.oneof(headerText, fc.nat({ max: 10_000_000 }).map(String)), (value) => {
        assert.equal(keyVersion(value), !agentHeaderRefused('x-agent-key-version', value), `x-agent-key-version ${JSON.stringify(value)}`);
      }),
      { numRuns: RUNS },
    );
  });

  test('idempotency-key: schema-valid if and only if the service takes it', () => {
    const key = ajv.compile(parameters.IdempotencyKey.schema);
    fc.assert(
      fc.property(headerText, (value) => {
        let taken = true;
        try {
          validateIdempotencyKey(value);
        } catch {
          taken = false;
        }
        assert.equal(key(value), taken, `idempotency-key ${JSON.stringify(value)}`);
      }),
      { numRuns: RUNS },
    );
  });

  test('every cursor the service issues fits the cursor parameter of every listing; text outside its form does not', () => {
    const schemas = Object.values(doc.paths as Json)
      .flatMap((ops) => Object.values(ops as Json))
      .flatMap((op) => ((op as Json).parameters ?? []) as Json[])
      .filter((p) => p.in === 'query' && p.name === 'cursor')
      .map((p) => ajv.compile(p.schema));
    assert.ok(schemas.length >= 11, `${schemas.length} listings take a cursor`);
    const codec = createCursorCodec(Buffer.alloc(32, 1));
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.array(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 200 })), { maxLength: 4 }),
        (kind, values) => {
          const cursor = codec.encode(kind, values);
          // a cursor longer than the service decodes is never issued by a listing (their values are short)
          if (cursor.length > 1024) return;
          for (const valid of schemas) assert.ok(valid(cursor), cursor);
        },
      ),
      { numRuns: RUNS },
    );
    for (const valid of schemas) {
      assert.ok(valid(''), 'empty: the first page');
      for (const bad of ['garbage', 'abc.def', `${'a'.repeat(1008)}.${'b'.repeat(16)}`, 'a.bbbbbbbbbbbbbbbb\n', 'a b.bbbbbbbbbbbbbbbb'])
        assert.equal(valid(bad), false, bad);
    }
  });
});
