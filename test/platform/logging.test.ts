import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { generateAgentKey, signAgentRequest, signHumanRequest, toQueryString } from '../../sdk/index.js';
import { createTestDatabase, testEnv, type TestDatabase } from '../helpers/app.js';

interface LogLine {
  level: number;
  msg?: string;
  reqId?: string;
  code?: string;
  [key: string]: unknown;
}

const secret = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;

/** A handler that logs carelessly, as a future route might: the redaction paths must still hold. */
const carelessRoute: FastifyPluginAsync = async (app) => {
  app.post('/v1/test/careless', { config: { auth: { kind: 'public' } } }, async (request, reply) => {
    request.log.info({ headers: request.headers, body: request.body }, 'careless handler log');
    request.log.info({ req: request }, 'careless request log');
    return reply.code(204).send();
  });
  // a handler whose query fails on the database with a value the client sent as a bound parameter
  app.post('/v1/test/failing-query', { config: { auth: { kind: 'public' } } }, async (request) => {
    const { value } = request.body as { value: string };
    await sql`insert into stories (id) values (${value})`.execute(app.ctx.database.db);
    return { never: true };
  });
};

describe('secrets never reach the logs', () => {
  const humanSecret = secret('human-secret');
  const apiKey = secret('api-key');
  const opsToken = secret('ops-token');
  const cookie = secret('session');
  const queryToken = secret('query-token');
  const proofSignature = `0x${randomBytes(65).toString('hex')}`;
  const agentproof = Buffer.from(
    JSON.stringify({
      address: '0x0000000000000000000000000000000000000001',
      uri: 'http://127.0.0.1/v1/candidates',
      signature: proofSignature,
    }),
  ).toString('base64');
  const innerSecrets = { signature: secret('body-signature'), proof: secret('body-proof'), secret: secret('body-secret') };
  const boundValue = secret('bound-parameter');

  const lines: LogLine[] = [];
  const raw: string[] = [];
  /** Every header value that must not be logged. */
  const forbidden = new Set<string>([
    humanSecret,
    apiKey,
    opsToken,
    queryToken,
    proofSignature,
    agentproof,
    ...Object.values(innerSecrets),
  ]);
  const sentIds: string[] = [];
  let requestNo = 0;
  let db: TestDatabase;
  let app: FastifyInstance;

  async function send(options: { method: 'GET' | 'POST'; url: string; headers?: Record<string, string>; body?: unknown }) {
    const id = `log-test-${++requestNo}`;
    sentIds.push(id);
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (['x-signature', 'x-agent-signature', 'x-api-key', 'authorization', 'x-operations-token', 'agentproof', 'cookie'].includes(name))
        forbidden.add(value);
    }
    const res = await app.inject({
      method: options.method,
      url: options.url,
      headers: { 'x-request-id': id, ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
      ...(options.body !== undefined ? { payload: JSON.stringify(options.body) } : {}),
    });
    assert.equal(res.headers['x-request-id'], id);
    return { id, status: res.statusCode, body: res.body };
  }

  before(async () => {
    db = await createTestDatabase();
    const config = loadConfig(
      testEnv({
        ...(db.url ? { DATABASE_URL: db.url } : {}),
        LOG_LEVEL: 'info',
        HUMAN_SIGNING_SECRET: humanSecret,
        PUBLIC_API_KEYS: apiKey,
        API_OPERATIONS_TOKEN: opsToken,
      }),
    );
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) raw.push(line);
        callback();
      },
    });
    app = await buildApp(config, { database: db.database, migrate: false, logStream: stream, plugins: [carelessRoute] });
    raw.length = 0; // only what the requests below log

    const all = {
      'x-signature': randomBytes(32).toString('hex'),
      'x-agent-signature': randomBytes(64).toString('base64url'),
      'x-api-key': apiKey,
      authorization: `Bearer ${opsToken}`,
      'x-operations-token': opsToken,
      agentproof,
      cookie: `sid=${cookie}`,
    };
    assert.equal((await send({ method: 'GET', url: `/healthz?token=${queryToken}`, headers: all })).status, 200);
    assert.equal((await send({ method: 'GET', url: '/nowhere', headers: all })).status, 404);

    // human signed write and read: accepted, then a forged signature rejected
    const write = { actorId: 'reader-1', verified: false, preferences: { feedMode: 'recent' } };
    const signedWrite = signHumanRequest({ secret: humanSecret, method: 'POST', path: '/v1/users/me/preferences', body: write });
    assert.equal((await send({ method: 'POST', url: '/v1/users/me/preferences', headers: signedWrite, body: write })).status, 202);
    const forged = signHumanRequest({ secret: secret('wrong'), method: 'POST', path: '/v1/users/me/preferences', body: write });
    assert.equal((await send({ method: 'POST', url: '/v1/users/me/preferences', headers: forged, body: write })).status, 401);
    const query = { actorId: 'reader-1', verified: 'false' };
    const signedRead = signHumanRequest({ secret: humanSecret, method: 'GET', path: '/v1/users/me/preferences', query });
    assert.equal((await send({ method: 'GET', url: `/v1/users/me/preferences${toQueryString(query)}`, headers: signedRead })).status, 200);

    // agent signed writes: a join, a forged join, and an agentproof on a write the bot may not make verified
    const key = generateAgentKey();
    const join = { publicKey: key.publicKey, name: 'log bot' };
    const joinHeaders = signAgentRequest({ key, method: 'POST', path: '/v1/agents/join', body: join });
    assert.equal((await send({ method: 'POST', url: '/v1/agents/join', headers: { ...joinHeaders, agentproof }, body: join })).status, 202);
    const forgedJoin = signAgentRequest({ key: generateAgentKey(), method: 'POST', path: '/v1/agents/join', body: join });
    assert.equal((await send({ method: 'POST', url: '/v1/agents/join', headers: forgedJoin, body: join })).status, 401);
    const candidate = { botId: key.botId, verified: true, title: 'x' };
    const candidateHeaders = signAgentRequest({ key, method: 'POST', path: '/v1/candidates', body: candidate });
    assert.equal(
      (await send({ method: 'POST', url: '/v1/candidates', headers: { ...candidateHeaders, agentproof }, body: candidate })).status,
      403,
    );

    // API key and operations token, in their own header and as Bearer, right and wrong
    const hash = 'a'.repeat(64);
    assert.equal((await send({ method: 'GET', url: `/v1/candidates/${hash}/status`, headers: { 'x-api-key': apiKey } })).status, 404);
    assert.equal(
      (await send({ method: 'GET', url: `/v1/candidates/${hash}/status`, headers: { authorization: `Bearer ${apiKey}` } })).status,
      404,
    );
    const wrongKey = secret('wrong-api-key');
    assert.equal((await send({ method: 'GET', url: `/v1/candidates/${hash}/status`, headers: { 'x-api-key': wrongKey } })).status, 401);
    assert.equal((await send({ method: 'GET', url: '/metrics', headers: { 'x-operations-token': opsToken } })).status, 200);
    assert.equal((await send({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${opsToken}` } })).status, 200);
    assert.equal((await send({ method: 'GET', url: '/metrics', headers: { 'x-operations-token': secret('wrong-ops') } })).status, 401);

    // a database error on a bound parameter: 500, and the parameter must not reach the log
    const failing = await send({ method: 'POST', url: '/v1/test/failing-query', body: { value: boundValue } });
    assert.equal(failing.status, 500);

    // a handler that logs the headers and a body with secret-named members
    assert.equal(
      (await send({ method: 'POST', url: '/v1/test/careless', headers: all, body: { note: 'visible', ...innerSecrets } })).status,
      204,
    );

    for (const line of raw) lines.push(JSON.parse(line) as LogLine);
  });

  after(async () => {
    await app?.close();
    await db?.drop();
  });

  test('the app logs at info through the captured stream', () => {
    assert.ok(lines.length >= sentIds.length * 2, `captured ${lines.length} lines`);
    assert.ok(lines.some((l) => l.level === 30 && l.msg === 'incoming request'));
    assert.ok(lines.some((l) => l.msg === 'request completed'));
  });

  test('no secret header value, query secret or signing secret appears in the output', () => {
    const output = raw.join('\n');
    assert.ok(forbidden.size >= 15, `checked ${forbidden.size} secret values`);
    for (const value of forbidden) {
      assert.equal(output.includes(value), false, `a secret leaked into the logs: ${value.slice(0, 12)}…`);
    }
    // the bearer token on its own, not only "Bearer <token>"
    assert.equal(output.includes(opsToken), false);
    assert.equal(output.includes(apiKey), false);
  });

  test('a handler logging headers and secret-named body members gets them redacted', () => {
    const headersLine = lines.find((l) => l.msg === 'careless handler log');
    assert.ok(headersLine, 'the careless handler logged');
    const headers = headersLine.headers as Record<string, unknown>;
    for (const name of ['authorization', 'x-api-key', 'x-operations-token', 'x-signature', 'x-agent-signature', 'agentproof', 'cookie']) {
      assert.equal(headers[name], '[redacted]', `${name} is redacted`);
    }
    const body = headersLine.body as Record<string, unknown>;
    assert.equal(body.note, 'visible', 'ordinary members are still logged');
    assert.equal(body.signature, '[redacted]');
    assert.equal(body.proof, '[redacted]');
    assert.equal(body.secret, '[redacted]');
    const reqLine = lines.find((l) => l.msg === 'careless request log');
    assert.ok(reqLine);
    assert.deepEqual(Object.keys(reqLine.req as object).sort(), ['ip', 'method', 'path'], 'a logged request is method, path and ip only');
  });

  test('request logs carry the path without the query string', () => {
    const incoming = lines.filter((l) => l.msg === 'incoming request');
    const paths = incoming.map((l) => (l.req as { path: string }).path);
    assert.ok(paths.includes('/healthz'));
    assert.ok(paths.every((p) => !p.includes('?')));
  });

  test('every log line of a request carries its request id', () => {
    const known = new Set(sentIds);
    for (const line of lines) {
      assert.ok(typeof line.reqId === 'string', `line without reqId: ${JSON.stringify(line).slice(0, 200)}`);
      assert.ok(known.has(line.reqId), `unknown reqId ${line.reqId}`);
    }
    for (const id of sentIds) {
      const own = lines.filter((l) => l.reqId === id);
      assert.ok(
        own.some((l) => l.msg === 'incoming request'),
        `${id} has its incoming line`,
      );
      assert.ok(
        own.some((l) => l.msg === 'request completed'),
        `${id} has its completed line`,
      );
    }
  });

  test('a rejected request logs its error code under its request id', () => {
    const rejected = lines.filter((l) => l.msg === 'request rejected');
    const codes = new Map(rejected.map((l) => [l.reqId, l.code]));
    assert.ok([...codes.values()].includes('SIGNATURE_INVALID'));
    assert.ok([...codes.values()].includes('AGENT_SIGNATURE_INVALID'));
    assert.ok([...codes.values()].includes('AGENTPROOF_VERIFICATION_FAILED'));
    assert.ok([...codes.values()].includes('OPERATIONS_ACCESS_REQUIRED'));
    for (const line of rejected) assert.ok(sentIds.includes(String(line.reqId)));
  });

  test('a 5xx log line carries the error, never the SQL or its bound parameters (defect: PGlite errors carried both)', () => {
    const failed = lines.find((l) => l.msg === 'request failed');
    assert.ok(failed, 'the failing query was logged as a 5xx');
    const err = failed.err as Record<string, unknown>;
    assert.equal(typeof err.message, 'string');
    assert.equal(typeof err.code, 'string', 'the SQLSTATE stays for the operator');
    for (const field of ['query', 'params', 'parameters', 'detail']) assert.equal(field in err, false, `err.${field} is not logged`);
    assert.equal(raw.join('\n').includes(boundValue), false, 'the bound value never appears in the output');
  });
});
