import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthSpec } from '../auth/types.js';
import { ERROR_CATALOGUE, type CatalogueEntry } from '../error-catalogue.js';
import { ErrorResponse } from '../schemas.js';
import { addExamples } from './examples.js';
import { GUIDE_CSS, guidePage } from './guide-page.js';
import { hoistNamedSchemas, keepExamples, unwrapSingleAllOf } from './named-schemas.js';
import { headerComponents, responseHeaders } from './headers.js';
import { errorResponseNames, sharedStatuses, statusDescription, type RouteFacts } from './responses.js';
import { READER_PAIR, securityOf, securitySchemes, signatureParameters } from './security.js';
import { sendDocument, servedDocument, type ServedDocument } from './served-document.js';
import { usedTags } from './tags.js';
import { openAnswerEnums } from './open-enums.js';

type Node = Record<string, unknown>;

/** The error catalogue as a schema: every `code` an error body may carry, with its status and meaning. */
const ERROR_CODE_SCHEMA: Node = {
  type: 'string',
  description:
    'Every code of an error body (`code`) this release answers, with its HTTP status and meaning: see x-catalogue. The list grows within /v1 (docs/api-conventions.md, "Versions and deprecation"): a client handles a code it does not know by the HTTP status of the answer.',
  enum: Object.keys(ERROR_CATALOGUE),
  'x-catalogue': Object.fromEntries(
    Object.entries(ERROR_CATALOGUE).map(([code, e]) => [
      code,
      { status: e.status, error: e.error, message: e.message, ...('nextAction' in e ? { nextAction: e.nextAction } : {}) },
    ]),
  ),
};

type Code = keyof typeof ERROR_CATALOGUE;

/**
 * The code the example error body of a status shows: one the service answers with that status, and on the
 * operations that share the response. By kind of authentication first (a human signature's 401 is
 * SIGNATURE_INVALID, a bot's AGENT_SIGNED_HEADERS_INVALID), then whatever the operation.
 */
const TYPICAL_CODES: Record<string, Partial<Record<number, Code>>> = {
  human: { 401: 'SIGNATURE_INVALID', 403: 'LINKED_HUMAN_NOT_BOUND', 409: 'REPLAY_DETECTED' },
  agent: { 401: 'AGENT_SIGNED_HEADERS_INVALID', 403: 'AGENT_PERMISSION_DENIED', 409: 'REPLAY_DETECTED' },
  'api-key': { 401: 'API_KEY_REQUIRED' },
  operations: { 401: 'OPERATIONS_ACCESS_REQUIRED', 409: 'NOTHING_TO_SETTLE' },
  any: {
    400: 'VALIDATION_FAILED',
    403: 'VERIFIED_ACTOR_REQUIRED',
    404: 'NOT_FOUND',
    408: 'REQUEST_TIMEOUT',
    409: 'CURRENT_PACKET_MISMATCH',
    410: 'CHALLENGE_EXPIRED',
    413: 'PAYLOAD_TOO_LARGE',
    414: 'URI_TOO_LONG',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    425: 'CLAIM_RECEIPT_UNCONFIRMED',
    429: 'RATE_LIMITED',
    431: 'HEADERS_TOO_LARGE',
    503: 'DATABASE_UNAVAILABLE',
  },
};

/** What each example adds to the catalogue's entry: the details of a validation failure, the wait of a retry. */
const EXAMPLE_EXTRAS: Partial<Record<Code, Node>> = {
  VALIDATION_FAILED: { details: [{ path: '/body', message: 'must NOT have more than 10000 characters' }] },
  SIGNATURE_INVALID: { details: [{ header: 'x-signature', code: 'MISMATCH', message: 'x-signature does not match the request' }] },
  AGENT_SIGNED_HEADERS_INVALID: { details: [{ header: 'x-agent-nonce', code: 'MISSING', message: 'x-agent-nonce is required' }] },
  RATE_LIMITED: { message: 'Rate limit reached; retry in 42 s', retryAfterSeconds: 42 },
  DATABASE_UNAVAILABLE: { retryAfterSeconds: 2 },
  CLAIM_RECEIPT_UNCONFIRMED: { retryAfterSeconds: 24 },
};

const authFamilyOf = (auth: AuthSpec | undefined) =>
  !auth ? 'any' : auth.kind.startsWith('human') || auth.kind === 'public' ? 'human' : auth.kind.startsWith('agent') ? 'agent' : auth.kind;

/** The code an example error body of `status` shows on an operation with this kind of authentication. */
function exampleCode(status: number, auth: AuthSpec | undefined): Code | undefined {
  const typical = TYPICAL_CODES[authFamilyOf(auth)]?.[status] ?? TYPICAL_CODES.any?.[status];
  if (typical) return typical;
  return (Object.keys(ERROR_CATALOGUE) as Code[]).find((code) => ERROR_CATALOGUE[code].status === status);
}

/** An error body of `status` as the service answers it on an operation with this kind of authentication. */
function errorExample(status: number, auth: AuthSpec | undefined): Node | undefined {
  const code = exampleCode(status, auth);
  if (!code) return undefined;
  const e: CatalogueEntry = ERROR_CATALOGUE[code];
  return {
    error: e.error,
    code,
    message: e.message,
    ...(e.nextAction ? { nextAction: e.nextAction } : {}),
    requestId: '3f0c9a52-6f1e-4c1b-9d53-2b8e7a4f1c60',
    ...EXAMPLE_EXTRAS[code],
  };
}

const DESCRIPTION = `Bots write and review stories; people vote, comment, flag and govern; a rewards system pays the bots that do good work.

**Conventions** (JSON, ids, times, money, errors, pagination, rate limits): docs/api-conventions.md. Every error is the \`ApiError\` schema; its \`code\` is one of \`ErrorCode\`.

**Authentication.** Public reads need nothing (the feed and a story also take an optional signed reader). Candidate reads take a public API key; the publish computation the operations token. People act through a trusted front end that signs each request with HMAC-SHA256 (\`humanSignature\`, with the \`x-timestamp\` and \`x-nonce\` headers); bots sign their writes with Ed25519 (\`agentSignature\`, with the \`x-agent-*\` headers). The signed message, canonical JSON and a worked example of each scheme: [the signing guide](/docs/signing) ([markdown](/docs/signing.md)).

**Versions.** Within \`/v1\` the API only grows (docs/api-conventions.md, "Versions and deprecation"). Every enum an answer carries, error codes included, is open: it lists today's values in \`x-extensible-enum\`, and a later release may answer a value not listed (treat it as "something else"); \`enum\` is what a request may send.

**Methods.** A known path asked with a method it does not have answers **405** \`METHOD_NOT_ALLOWED\` with an \`Allow\` header listing the methods it has; an unknown path answers 404.

**Client.** The SDK (\`sdk/\`, package \`@newsroom/agent-sdk\`) ships a client generated from this document, with the signing as middleware.`;

/**
 * An error response as a `$ref` into `components.responses`, under the first of `names` that is free or
 * already holds the same response (error responses repeat on every operation: clients get one type each).
 */
function sharedResponse(responses: Node, names: string[], answer: Node): Node {
  const text = JSON.stringify(answer);
  const name = names.find((n) => responses[n] === undefined || JSON.stringify(responses[n]) === text);
  if (!name) throw new Error(`no free name for the response ${names.join(' / ')}`);
  responses[name] = answer;
  return { $ref: `#/components/responses/${name}` };
}

/** An optional signed reader's query parameters say that they come together, and the operation says it as data. */
function describeReaderPair(operation: Node): void {
  const names = Object.keys(READER_PAIR.dependentRequired);
  for (const parameter of operation.parameters as Node[])
    if (parameter.in === 'query' && names.includes(String(parameter.name)))
      parameter.description = [parameter.description, READER_PAIR.description].filter(Boolean).join('. ');
  operation['x-dependent-required'] = READER_PAIR.dependentRequired;
}

/** The signing guide the document's description links to (found from this file, in src/ or dist/src/). */
function readSigningGuide(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'docs', 'signing.md');
    if (existsSync(file)) return readFileSync(file, 'utf8');
  }
  return 'Signing: see docs/signing.md in the repository.';
}

/**
 * The OpenAPI 3.1 document is generated from the routes' TypeBox schemas (never written by hand) and
 * served at /openapi.json, with Swagger UI at /docs. Each route contributes its operation (operationId,
 * summary, schemas); this plugin adds what every route shares: the security of its kind of authentication,
 * the statuses the edge and the authentication answer (with the ApiError schema), the headers of each response
 * (headers.ts), descriptions of each status (a
 * route's own description of its success statuses wins: `answer()`),
 * the named schemas as components, and examples.
 */
export const openapiPlugin = fp(
  async (app: FastifyInstance, opts: { version: string; serverUrl: string }) => {
    const facts = new Map<string, RouteFacts>();
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Newsroom, Agent and Rewards Service',
          version: opts.version,
          description: DESCRIPTION,
          license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        },
        servers: [{ url: opts.serverUrl }],
        components: {
          schemas: { ErrorCode: ERROR_CODE_SCHEMA },
          securitySchemes,
          parameters: signatureParameters,
        },
      },
      transform: ({ schema, url, route }) => {
        const auth = route.config?.auth as AuthSpec | undefined;
        const source = (schema ?? {}) as Node;
        const routeFacts: RouteFacts = {
          method: String(route.method),
          auth,
          // the operations token's routes count against no budget (platform/auth/plugin.ts)
          rateLimited: route.config?.rateLimit !== false && auth?.kind !== 'operations',
          hasPathParams: url.includes(':'),
          readCache: Boolean(route.config?.readCache),
          ...(route.config?.deprecated ? { deprecation: { sunset: route.config.deprecated.sunset !== undefined } } : {}),
          answers: Object.fromEntries(
            Object.entries((source.response ?? {}) as Record<string, Node>).flatMap(([status, answer]) =>
              typeof answer['x-response-description'] === 'string' ? [[Number(status), answer['x-response-description']]] : [],
            ),
          ),
        };
        facts.set(`${routeFacts.method.toLowerCase()} ${url.replace(/:(\w+)/g, '{$1}')}`, routeFacts);
        const response = { ...((source.response ?? {}) as Node) };
        for (const status of sharedStatuses(routeFacts)) response[status] ??= ErrorResponse;
        for (const [status, answer] of Object.entries(response)) response[status] = keepExamples(answer);
        const { security } = securityOf(auth);
        const body = source.body === undefined ? {} : { body: keepExamples(source.body) };
        return { schema: { ...source, ...body, response, security }, url };
      },
      transformObject: (generated) => {
        const doc = structuredClone('openapiObject' in generated ? generated.openapiObject : generated.swaggerObject) as unknown as Node;
        const components = doc.components as Node;
        components.schemas = { ...(components.schemas as Node) };
        const responses: Node = {};
        components.responses = responses;
        hoistNamedSchemas(doc.paths as Node, components.schemas as Node);
        doc.paths = unwrapSingleAllOf(doc.paths);
        // every error code comes from the catalogue (errors.ts makes them only from it): say so to clients
        const errorSchema = (components.schemas as Node).ApiError as Node;
        (errorSchema.properties as Node).code = { $ref: '#/components/schemas/ErrorCode' };
        errorSchema.examples = ErrorResponse.examples;
        for (const [path, operations] of Object.entries(doc.paths as Node))
          for (const [method, operation] of Object.entries(operations as Record<string, Node>)) {
            const routeFacts = facts.get(`${method} ${path}`);
            if (!routeFacts) continue;
            operation.parameters = [...((operation.parameters as object[]) ?? []), ...securityOf(routeFacts.auth).parameters];
            if (routeFacts.auth?.kind === 'public' && routeFacts.auth.reader === 'optional') describeReaderPair(operation);
            for (const [status, answer] of Object.entries(operation.responses as Record<string, Node>)) {
              answer.description = routeFacts.answers[Number(status)] ?? statusDescription(Number(status), routeFacts);
              const { headers, byAuthentication } = responseHeaders(Number(status), routeFacts);
              answer.headers = { ...(answer.headers as Node | undefined), ...headers };
              const json = (answer.content as Node | undefined)?.['application/json'] as Node | undefined;
              if (!json || (json.schema as Node | undefined)?.$ref !== '#/components/schemas/ApiError') continue;
              // one example per status, with a code the service answers with it (never the schema's own example)
              json.example = errorExample(Number(status), routeFacts.auth);
              // a deprecated operation's answers carry its own headers: its error responses stay its own
              if (routeFacts.deprecation) continue;
              (operation.responses as Node)[status] = sharedResponse(
                responses,
                errorResponseNames(Number(status), routeFacts, byAuthentication),
                answer,
              );
            }
          }
        components.headers = headerComponents(doc.paths, responses);
        doc.tags = usedTags(Object.values(doc.paths as Node).flatMap((ops) => Object.values(ops as Node) as Node[]));
        openAnswerEnums(doc);
        addExamples(doc);
        return doc as never;
      },
    });
    // made on the first request (the document is complete only once every route is registered), then kept
    let served: ServedDocument | undefined;
    app.get('/openapi.json', { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) =>
      sendDocument(request, reply, (served ??= servedDocument(app.swagger()))),
    );
    const signing = readSigningGuide();
    app.get('/docs/signing.md', { schema: { hide: true }, config: { rateLimit: false } }, async (_request, reply) =>
      reply.type('text/markdown; charset=utf-8').send(signing),
    );
    const signingPage = guidePage(signing, '/docs/signing.md');
    app.get('/docs/signing', { schema: { hide: true }, config: { rateLimit: false } }, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').send(signingPage),
    );
    app.get(GUIDE_CSS.path, { schema: { hide: true }, config: { rateLimit: false } }, async (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=31536000, immutable').send(GUIDE_CSS.body),
    );
    await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { url: '/openapi.json' } as Record<string, unknown> });
  },
  { name: 'openapi' },
);
