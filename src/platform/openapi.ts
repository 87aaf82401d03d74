import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthSpec } from './auth/types.js';
import { ERROR_CATALOGUE } from './error-catalogue.js';

/** The error catalogue as a schema: every `code` an error body may carry, with its status and meaning. */
const ERROR_CODE_SCHEMA: { type: 'string' } & Record<string, unknown> = {
  type: 'string',
  description: 'Every code of an error body (`code`), with its HTTP status and meaning: see x-catalogue.',
  enum: Object.keys(ERROR_CATALOGUE),
  'x-catalogue': Object.fromEntries(
    Object.entries(ERROR_CATALOGUE).map(([code, e]) => [
      code,
      { status: e.status, error: e.error, message: e.message, ...('nextAction' in e ? { nextAction: e.nextAction } : {}) },
    ]),
  ),
};

/** OpenAPI security requirement for each kind of route authentication. */
const SECURITY: Record<AuthSpec['kind'], Record<string, string[]>[] | undefined> = {
  public: undefined,
  'api-key': [{ apiKey: [] }, { bearer: [] }],
  operations: [{ operationsToken: [] }, { bearer: [] }],
  'human-write': [{ humanSignature: [] }],
  'human-read': [{ humanSignature: [] }],
  'agent-join': [{ agentSignature: [] }],
  agent: [{ agentSignature: [] }],
};

/**
 * The OpenAPI 3.1 document is generated from the routes' TypeBox schemas (never written by hand) and
 * served at /openapi.json, with Swagger UI at /docs.
 */
export const openapiPlugin = fp(
  async (app: FastifyInstance, opts: { version: string; serverUrl: string }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Newsroom, Agent and Rewards Service',
          version: opts.version,
          description:
            'Bots write and review stories; people vote, comment, flag and govern. See docs/ for the decisions behind each route.',
        },
        servers: [{ url: opts.serverUrl }],
        components: {
          schemas: { ErrorCode: ERROR_CODE_SCHEMA },
          securitySchemes: {
            apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
            bearer: { type: 'http', scheme: 'bearer' },
            operationsToken: { type: 'apiKey', in: 'header', name: 'x-operations-token' },
            humanSignature: {
              type: 'apiKey',
              in: 'header',
              name: 'x-signature',
              description: 'HMAC-SHA256 (hex) of timestamp.nonce.METHOD.path.canonicalBodyJson, with x-timestamp and x-nonce',
            },
            agentSignature: {
              type: 'apiKey',
              in: 'header',
              name: 'x-agent-signature',
              description:
                'Ed25519 (base64url) of svc-agent-v1:{aud}.{timestamp}.{nonce}.{METHOD}.{path}.{canonicalBodyJson}, with x-agent-timestamp and x-agent-nonce',
            },
          },
        },
      },
      transform: ({ schema, url, route }) => {
        const auth = route.config?.auth as AuthSpec | undefined;
        const security = auth ? SECURITY[auth.kind] : undefined;
        const transformed = { ...(schema ?? {}) } as Record<string, unknown>;
        if (security) transformed.security = security;
        return { schema: transformed, url };
      },
    });
    app.get('/openapi.json', { schema: { hide: true }, config: { rateLimit: false } }, async () => app.swagger());
    await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { url: '/openapi.json' } as Record<string, unknown> });
  },
  { name: 'openapi' },
);
