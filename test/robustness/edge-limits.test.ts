import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { loadConfig, ConfigError } from '../../src/config.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import type { Json } from '../helpers/json.js';

/**
 * The HTTP edge through real sockets (app.inject never reaches Node's parser or its timers): the size limits
 * answer 413, 414 and 431 with the error body, and slow clients (slowloris: headers dribbled, bodies
 * never finished, idle keep-alive connections) are cut by the configured timeouts while normal requests are
 * still answered. Small timeouts here; the defaults are in src/config.ts and docs/operators.md.
 */

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parse(text: string): RawAnswer {
  const split = text.indexOf('\r\n\r\n');
  const head = split === -1 ? text : text.slice(0, split);
  const body = split === -1 ? '' : text.slice(split + 4);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/** A raw connection: what it wrote, what came back, and whether the server closed it. */
function open(port: number): { socket: Socket; received: () => string; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => Buffer.concat(chunks).toString('latin1'), closed };
}

/** Sends `bytes` in one write and reads until the server closes the connection. */
async function rawOnce(port: number, bytes: string | Buffer): Promise<RawAnswer> {
  const c = open(port);
  c.socket.write(bytes);
  await c.closed;
  return parse(c.received());
}

function expectContract(answer: RawAnswer, status: number, code: string) {
  assert.equal(answer.status, status, answer.body.slice(0, 300));
  const body = JSON.parse(answer.body) as Json;
  assert.equal(body.code, code, answer.body);
  assert.equal(typeof body.error, 'string');
  assert.equal(body.requestId, answer.headers['x-request-id'], 'x-request-id names the requestId');
}

/** One request through node:http (a real client), answered or failed, never waited on past `timeoutMs`. */
function get(port: number, path: string, timeoutMs = 10_000): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer to ${path} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

describe('size limits through real HTTP', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await createTestApp();
    port = Number(new URL(await t.listen()).port);
  });
  after(() => t.close());

  test("Node's server gets the configured limits and timeouts (the defaults of src/config.ts)", () => {
    const server = t.app.server;
    assert.equal(server.headersTimeout, 10_000);
    assert.equal(server.requestTimeout, 30_000);
    assert.equal(server.keepAliveTimeout, 72_000);
    assert.equal((server as { maxHeaderSize?: number }).maxHeaderSize, 16_384);
    assert.equal(t.config.http.bodyLimitBytes, 1_048_576);
  });

  test('a body over HTTP_BODY_LIMIT_BYTES is 413 PAYLOAD_TOO_LARGE, declared or chunked', async () => {
    const big = `{"actorId":"reader-1","verified":false,"x":"${'a'.repeat(1_100_000)}"}`;
    const declared = await rawOnce(
      port,
      `POST /v1/users/me/preferences HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\nConnection: close\r\n\r\n${big}`,
    );
    expectContract(declared, 413, 'PAYLOAD_TOO_LARGE');
    const chunked = await rawOnce(
      port,
      `POST /v1/users/me/preferences HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`,
    );
    expectContract(chunked, 413, 'PAYLOAD_TOO_LARGE');
    // a declared length over the limit is refused before the body is read: nothing but the headers is sent
    const c = open(port);
    c.socket.write(
      `POST /v1/users/me/preferences HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n{"actorId":`,
    );
    while (!c.received().includes('\r\n\r\n')) await sleep(10);
    await sleep(50);
    expectContract(parse(c.received()), 413, 'PAYLOAD_TOO_LARGE');
    c.socket.destroy();
  });

  test('a request target over HTTP_MAX_URL_BYTES is 414 URI_TOO_LONG, on any route and on none', async () => {
    for (const path of [`/v1/feed?q=${'a'.repeat(9_000)}`, `/v1/search?q=${'%41'.repeat(3_000)}`, `/nowhere/${'b'.repeat(9_000)}`]) {
      expectContract(await rawOnce(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), 414, 'URI_TOO_LONG');
    }
    // past the parser's own limit too (the request line counts in HTTP_MAX_HEADER_BYTES): still 414, then closed
    const huge = await rawOnce(port, `GET /v1/feed?q=${'a'.repeat(40_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectContract(huge, 414, 'URI_TOO_LONG');
    assert.equal(huge.headers.connection, 'close');
    // just under the limit is served
    const ok = await get(port, `/healthz?${'a'.repeat(8_000)}`);
    assert.equal(ok.status, 200);
  });

  test('headers over HTTP_MAX_HEADER_BYTES are 431 HEADERS_TOO_LARGE: one big header or many small ones', async () => {
    const many = Array.from({ length: 300 }, (_, i) => `x-h${i}: ${'v'.repeat(60)}\r\n`).join('');
    for (const headers of [`x-big: ${'a'.repeat(20_000)}\r\n`, many, `cookie: ${'c=1; '.repeat(5_000)}\r\n`]) {
      const answer = await rawOnce(port, `GET /healthz HTTP/1.1\r\nHost: x\r\n${headers}\r\n`);
      expectContract(answer, 431, 'HEADERS_TOO_LARGE');
      assert.equal(answer.headers.connection, 'close');
    }
  });
});

describe('slow clients (slowloris) are cut by the configured timeouts', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await createTestApp({
      HTTP_HEADERS_TIMEOUT_MS: '600',
      HTTP_REQUEST_TIMEOUT_MS: '1200',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '500',
      HTTP_CONNECTIONS_CHECK_MS: '100',
    });
    port = Number(new URL(await t.listen()).port);
  });
  after(() => t.close());

  test('200 half-open connections (headers dribbled, bodies never finished) do not stop normal requests, and are each cut with 408', async () => {
    const dribblers = Array.from({ length: 150 }, () => open(port));
    const unfinished = Array.from({ length: 50 }, () => open(port));
    for (const c of unfinished)
      c.socket.write(
        'POST /v1/users/me/preferences HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"actorId":',
      );
    const request = 'GET /v1/feed HTTP/1.1\r\nHost: x\r\nx-slow: ';
    let stop = false;
    // one byte per connection every 50 ms: each keeps sending, none ever finishes its headers
    const dribbling = (async () => {
      for (let i = 0; !stop; i++) {
        for (const c of dribblers) if (!c.socket.destroyed) c.socket.write(i < request.length ? request[i]! : 'a');
        await sleep(50);
      }
    })();
    try {
      // while they hang, normal requests are answered
      for (let i = 0; i < 10; i++) {
        assert.equal((await get(port, '/healthz')).status, 200);
        assert.equal((await get(port, '/v1/feed')).status, 200);
      }
      // every half-open connection is cut by the server (the test's own timeout bounds the wait)
      await Promise.all([...dribblers, ...unfinished].map((c) => c.closed));
    } finally {
      stop = true;
      await dribbling;
    }
    for (const c of [...dribblers, ...unfinished]) expectContract(parse(c.received()), 408, 'REQUEST_TIMEOUT');
    // and the server still answers afterwards
    assert.equal((await get(port, '/healthz')).status, 200);
  });

  test('an idle keep-alive connection is closed after HTTP_KEEP_ALIVE_TIMEOUT_MS; one in use is not cut by the request timeout', async () => {
    const c = open(port);
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    while (!c.received().includes('{"status":"ok"}')) await sleep(10);
    // requests on the same connection, each complete, keep it open past the request timeout
    for (let i = 0; i < 8; i++) {
      const before = c.received().length;
      await sleep(200);
      c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      while (c.received().length === before || !c.received().endsWith('{"status":"ok"}')) await sleep(10);
    }
    assert.equal(c.socket.destroyed, false, 'still open after 1.6 s of use (request timeout 1.2 s)');
    await c.closed; // then idle: the server closes it
    assert.equal(c.received().split('HTTP/1.1 200').length - 1, 9);
  });
});

describe('HTTP settings are validated at start', () => {
  test('a request timeout below the headers timeout, or a URL limit not below the header limit, refuses to start', () => {
    assert.throws(
      () => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' }),
      (err: unknown) => err instanceof ConfigError && err.variable === 'HTTP_REQUEST_TIMEOUT_MS',
    );
    assert.throws(
      () => loadConfig({ HTTP_MAX_HEADER_BYTES: '8192', HTTP_MAX_URL_BYTES: '8192' }),
      (err: unknown) => err instanceof ConfigError && err.variable === 'HTTP_MAX_URL_BYTES',
    );
    assert.throws(
      () => loadConfig({ HTTP_CONNECTIONS_CHECK_MS: 'soon' }),
      (err: unknown) => err instanceof ConfigError && err.variable === 'HTTP_CONNECTIONS_CHECK_MS',
    );
    const config = loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '2000', SHUTDOWN_READINESS_DELAY_MS: '5000' });
    assert.equal(config.http.headersTimeoutMs, 2000);
    assert.equal(config.shutdown.readinessDelayMs, 5000);
  });
});
