import { verify } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { AGENT_MESSAGE_PREFIX, canonicalJson } from '../sdk/index.js';
import { publicKeyObject } from '../src/platform/auth/agent-signature.js';

/**
 * The bare servers the scenarios are compared with: plain Fastify (no plugins, no hooks, no schemas), each
 * doing only the unavoidable work of its scenario. A scenario's ratio is "how much of the bare cost of this
 * work does the service keep"; the gap is the framework and application overhead around it.
 */
export type BaselineName = 'healthz' | 'ed25519-redis' | 'pg-insert' | 'static-json';

export interface BaselineOptions {
  databaseUrl: string;
  redisUrl: string;
  /** Prefix of the Redis keys the baseline writes (kept apart from the app's). */
  redisKeyPrefix: string;
  /** Audience of the agent messages, as the app's AGENT_SIGNED_WRITE_AUD. */
  aud: string;
  /** node-postgres pool size: the app's DATABASE_POOL_MAX, so that both sides get the same connections. */
  poolMax: number;
  /**
   * static-json only: a JSON file `{ "routes": [...], "bodies": { "<url>": <body> } }`, the route patterns
   * to register (as the service declares them) and the body to answer for each request URL.
   */
  staticBodiesFile?: string;
}

export const SCRATCH_TABLE = 'bench_scratch_preferences';

export async function buildBaseline(name: BaselineName, options: BaselineOptions): Promise<FastifyInstance> {
  switch (name) {
    case 'healthz':
      return healthzBaseline();
    case 'ed25519-redis':
      return ed25519RedisBaseline(options);
    case 'pg-insert':
      return pgInsertBaseline(options);
    case 'static-json':
      return staticJsonBaseline(options);
  }
}

/** One route answering the same body as the service's /healthz. */
async function healthzBaseline(): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.ready();
  return app;
}

/**
 * POST /v1/agents/join reduced to its security work: rebuild the signed message, verify the Ed25519 signature
 * with node:crypto (its key parsed and cached by the service's own publicKeyObject) and claim the nonce with one
 * `SET key 1 PX 600000 NX`. No validation, no database. The driver sends it the same kind of pre-signed
 * requests as the service (a new key per request), so each request also pays one public-key parse, as in the
 * service.
 */
async function ed25519RedisBaseline(options: BaselineOptions): Promise<FastifyInstance> {
  const redis = new Redis(options.redisUrl, { keyPrefix: options.redisKeyPrefix, maxRetriesPerRequest: 2 });
  redis.on('error', () => undefined);
  const app = Fastify({ logger: false });
  app.post('/v1/agents/join', async (request, reply) => {
    const body = request.body as { publicKey: string };
    const timestamp = request.headers['x-agent-timestamp'] as string;
    const nonce = request.headers['x-agent-nonce'] as string;
    const signature = Buffer.from(request.headers['x-agent-signature'] as string, 'base64url');
    const message = Buffer.from(
      `${AGENT_MESSAGE_PREFIX}:${options.aud}.${timestamp}.${nonce}.POST./v1/agents/join.${canonicalJson(body)}`,
      'utf8',
    );
    const key = publicKeyObject(body.publicKey);
    if (!key || !verify(null, message, key, signature)) return reply.code(401).send({ error: 'bad signature' });
    const claimed = await redis.set(`nonce:${body.publicKey}:${nonce}`, '1', 'PX', 600_000, 'NX');
    if (claimed !== 'OK') return reply.code(409).send({ error: 'replay' });
    return { ok: true };
  });
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  await app.ready();
  return app;
}

/** POST /v1/users/me/preferences reduced to one INSERT through a node-postgres pool into a scratch table. */
async function pgInsertBaseline(options: BaselineOptions): Promise<FastifyInstance> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolMax });
  pool.on('error', () => undefined);
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${SCRATCH_TABLE} (actor_id text PRIMARY KEY, preferences jsonb NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`,
  );

  const app = Fastify({ logger: false });
  app.post('/v1/users/me/preferences', async (request, reply) => {
    const body = request.body as { actorId: string; preferences: Record<string, unknown> };
    const { rows } = await pool.query<{ updated_at: Date }>(
      `INSERT INTO ${SCRATCH_TABLE} (actor_id, preferences) VALUES ($1, $2) RETURNING updated_at`,
      [body.actorId, JSON.stringify(body.preferences)],
    );
    return reply
      .code(202)
      .send({ actorId: body.actorId, preferences: body.preferences, updatedAt: rows[0]?.updated_at.toISOString() ?? null });
  });
  app.addHook('onClose', async () => {
    await pool.end();
  });
  await app.ready();
  return app;
}

/**
 * A public read reduced to answering its JSON: GET on the service's own route patterns, answering for each
 * request URL the body the service answered for it (captured by the scenario's setup), serialized per request
 * by Fastify's default JSON.stringify as any route returning an object. Same URLs, same body sizes, no
 * database, no Redis, no schema, no hooks: the ratio says how much of this bare cost the service keeps.
 */
async function staticJsonBaseline(options: BaselineOptions): Promise<FastifyInstance> {
  if (!options.staticBodiesFile) throw new Error('static-json needs staticBodiesFile');
  const file = JSON.parse(await readFile(options.staticBodiesFile, 'utf8')) as { routes: string[]; bodies: Record<string, unknown> };
  const bodies = new Map(Object.entries(file.bodies));
  const app = Fastify({ logger: false, routerOptions: { maxParamLength: 200 } });
  for (const route of file.routes) {
    app.get(route, async (request, reply) => {
      const body = bodies.get(request.url);
      if (body === undefined) return reply.code(404).send({ error: 'no body recorded for this URL' });
      return body;
    });
  }
  await app.ready();
  return app;
}
