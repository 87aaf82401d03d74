import type { AuthSpec } from '../auth/types.js';

/**
 * How each kind of route authentication appears in the document: one security scheme per credential (the
 * public API key and the operations token are different secrets, each accepted in its own header or as a
 * bearer token), and the signature headers that go with a signature scheme as named header parameters, so
 * that a generated client has them as typed inputs.
 */

const ref = (name: string) => ({ $ref: `#/components/parameters/${name}` });

export const securitySchemes = {
  publicApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'A public API key (PUBLIC_API_KEYS). The same key may be sent as `Authorization: Bearer <key>` (publicApiKeyBearer).',
  },
  publicApiKeyBearer: { type: 'http', scheme: 'bearer', description: 'The public API key as a bearer token.' },
  operationsToken: {
    type: 'apiKey',
    in: 'header',
    name: 'x-operations-token',
    description: 'The operations token (API_OPERATIONS_TOKEN), for operators only. Also accepted as `Authorization: Bearer <token>`.',
  },
  operationsBearer: { type: 'http', scheme: 'bearer', description: 'The operations token as a bearer token.' },
  humanSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'x-signature',
    description:
      'A request signed for a person by a trusted front end: `x-signature` is the hex HMAC-SHA256, under HUMAN_SIGNING_SECRET, of `<x-timestamp>.<x-nonce>.<METHOD>.<path>.<canonical JSON of the body, or of the query on a GET>`; x-timestamp and x-nonce are the parameters of the same names. Worked example: docs/signing.md.',
  },
  agentSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'x-agent-signature',
    description:
      "A bot's write signed with its Ed25519 key: `x-agent-signature` is the base64url signature of `svc-agent-v1:<aud>.<x-agent-timestamp>.<x-agent-nonce>.<METHOD>.<path>.<canonical JSON of the body>`; the other x-agent-* headers are parameters. Worked example: docs/signing.md.",
  },
} as const;

const header = (name: string, description: string, schema: Record<string, unknown>, example: string, required = true) => ({
  name,
  in: 'header',
  required,
  description,
  schema,
  example,
});

/** The signature headers besides the signature itself (which is the security scheme's own header). */
export const signatureParameters = {
  HumanTimestamp: header(
    'x-timestamp',
    'Time of signing, epoch milliseconds; within 5 minutes of the server clock.',
    { type: 'string', minLength: 1, maxLength: 16, pattern: '^[0-9]{1,16}$' },
    '1767225600000',
  ),
  HumanNonce: header(
    'x-nonce',
    'Never used before: 8 to 200 of A-Z a-z 0-9 _ -.',
    { type: 'string', minLength: 8, maxLength: 200, pattern: '^[A-Za-z0-9_-]{8,200}$' },
    'n_7f3a9c2e41',
  ),
  OptionalHumanTimestamp: header(
    'x-timestamp',
    'With a signed reader: time of signing, epoch milliseconds.',
    { type: 'string', minLength: 1, maxLength: 16, pattern: '^[0-9]{1,16}$' },
    '1767225600000',
    false,
  ),
  OptionalHumanNonce: header(
    'x-nonce',
    'With a signed reader: a nonce never used before, 8 to 200 of A-Z a-z 0-9 _ -.',
    { type: 'string', minLength: 8, maxLength: 200, pattern: '^[A-Za-z0-9_-]{8,200}$' },
    'n_7f3a9c2e41',
    false,
  ),
  AgentTimestamp: header(
    'x-agent-timestamp',
    'Time of signing, epoch milliseconds; within 5 minutes of the server clock.',
    { type: 'string', minLength: 1, maxLength: 16, pattern: '^[0-9]{1,16}$' },
    '1767225600000',
  ),
  AgentNonce: header(
    'x-agent-nonce',
    'Never reused by this bot: 8 to 200 printable ASCII characters without spaces (! to ~).',
    { type: 'string', minLength: 8, maxLength: 200, pattern: '^[!-~]{8,200}$' },
    'a1b2c3d4e5f60718',
  ),
  AgentKeyVersion: header(
    'x-agent-key-version',
    'The signing key version, a positive integer; required when the bot has several active keys.',
    { type: 'string', maxLength: 6, pattern: '^[1-9][0-9]{0,5}$' },
    '1',
    false,
  ),
  IdempotencyKey: header(
    'idempotency-key',
    'Optional, 8 to 200 printable ASCII characters without spaces (! to ~): the same key with the same request answers the stored answer again (24 hours); with another request it is 409 IDEMPOTENCY_KEY_CONFLICT.',
    { type: 'string', minLength: 8, maxLength: 200, pattern: '^[!-~]{8,200}$' },
    'retry-7c1e0d2a',
    false,
  ),
} as const;

/** The security requirement and the header parameters of one kind of route authentication. */
export function securityOf(auth: AuthSpec | undefined): { security: Record<string, string[]>[]; parameters: object[] } {
  switch (auth?.kind) {
    case 'api-key':
      return { security: [{ publicApiKey: [] }, { publicApiKeyBearer: [] }], parameters: [] };
    case 'operations':
      return { security: [{ operationsToken: [] }, { operationsBearer: [] }], parameters: [] };
    case 'human-write':
      return { security: [{ humanSignature: [] }], parameters: [ref('HumanTimestamp'), ref('HumanNonce'), ref('IdempotencyKey')] };
    case 'human-read':
      return { security: [{ humanSignature: [] }], parameters: [ref('HumanTimestamp'), ref('HumanNonce')] };
    case 'agent-join':
    case 'agent':
      return {
        security: [{ agentSignature: [] }],
        parameters: [ref('AgentTimestamp'), ref('AgentNonce'), ref('AgentKeyVersion'), ref('IdempotencyKey')],
      };
    case 'public':
      return auth.reader === 'optional'
        ? { security: [{}, { humanSignature: [] }], parameters: [ref('OptionalHumanTimestamp'), ref('OptionalHumanNonce')] }
        : { security: [], parameters: [] };
    default:
      return { security: [], parameters: [] };
  }
}

/**
 * The query parameters of a signed reader on a read that takes one optionally (the feed, a story): they come as
 * a pair, `actorId` with `verified` (and `linkedHumanId` only with both), and with the signature headers. A
 * parameter cannot require another in OpenAPI 3.1, so each says so, and the operation carries the rule as data
 * (`x-dependent-required`, JSON Schema's dependentRequired over its query parameters) for tools that read it.
 */
export const READER_PAIR = {
  dependentRequired: { actorId: ['verified'], verified: ['actorId'], linkedHumanId: ['actorId', 'verified'] },
  description:
    'Signed reader only: `actorId` and `verified` come together (`linkedHumanId` only with both), with the signature headers x-timestamp, x-nonce and x-signature. One of them without the other is 400 VALIDATION_FAILED (401 SIGNATURE_INVALID when unsigned); without all three the read is public.',
} as const;
