import { execFileSync } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A webhook receiver as an operator would run one: a real HTTPS server on 127.0.0.1 with a throwaway
 * self-signed certificate (made here with openssl, for `localhost` and 127.0.0.1) that checks each delivery's
 * signature with its own code, the way docs/webhooks.md shows.
 */

export interface TestCertificate {
  /** PEM of the certificate (it is its own CA): what NODE_EXTRA_CA_CERTS points at. */
  cert: string;
  key: string;
  /** The certificate file, for NODE_EXTRA_CA_CERTS. */
  certPath: string;
  cleanup(): void;
}

export function createTestCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-cert-'));
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-keyout',
      keyPath,
      '-out',
      certPath,
    ],
    { stdio: 'ignore' },
  );
  return {
    cert: readFileSync(certPath, 'utf8'),
    key: readFileSync(keyPath, 'utf8'),
    certPath,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The receiver's own check: the documented ten lines (docs/webhooks.md, "Verifying a delivery"). */
export function verifyWebhook(secret: string, headers: IncomingMessage['headers'], rawBody: string): boolean {
  const id = headers['x-svc-webhook-id'];
  const timestamp = headers['x-svc-webhook-timestamp'];
  const signature = headers['x-svc-webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  const expected = 'sha256=' + createHmac('sha256', secret).update(`${id}.${timestamp}.${rawBody}`).digest('hex');
  const a = Buffer.from(signature);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What the receiver does with one request: an HTTP status (with headers), drop the connection, or never answer. */
export type Behaviour = number | { status: number; headers?: Record<string, string>; delayMs?: number } | 'reset' | 'hang';

export interface Received {
  id: string;
  type: string;
  body: Record<string, unknown>;
  raw: string;
  signatureValid: boolean;
  headers: IncomingMessage['headers'];
  /** What the receiver answered. */
  answered: Behaviour;
}

export interface Receiver {
  url: string;
  port: number;
  /** Every request in arrival order (including refused and hung ones). */
  requests: Received[];
  /** The ones answered 2xx: the deliveries that succeeded. */
  delivered(): Received[];
  /** Behaviours for the next requests, in order; after them, `fallback`. */
  plan(...behaviours: Behaviour[]): void;
  fallback: Behaviour;
  /** Resolves when `n` requests have arrived. */
  waitForRequests(n: number): Promise<void>;
  /** Requests still waiting for an answer ('hang'). */
  pending(): number;
  close(): Promise<void>;
}

export async function startReceiver(certificate: TestCertificate, secret: string, path = '/hooks/newsroom'): Promise<Receiver> {
  const queue: Behaviour[] = [];
  const requests: Received[] = [];
  const hung = new Set<ServerResponse>();
  const waiters: { n: number; resolve: () => void }[] = [];
  const receiver = { fallback: 200 as Behaviour } as Receiver;

  const server: Server = createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const behaviour = queue.shift() ?? receiver.fallback;
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // recorded with an empty body: the assertions on it fail
      }
      requests.push({
        id: String(req.headers['x-svc-webhook-id'] ?? ''),
        type: String(body.type ?? ''),
        body,
        raw,
        signatureValid: req.url === path && verifyWebhook(secret, req.headers, raw),
        headers: req.headers,
        answered: behaviour,
      });
      for (const w of [...waiters]) {
        if (requests.length < w.n) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      if (behaviour === 'reset') return req.socket.destroy();
      if (behaviour === 'hang') {
        hung.add(res);
        res.on('close', () => hung.delete(res));
        return;
      }
      const { status, headers, delayMs = 0 } = typeof behaviour === 'number' ? { status: behaviour, headers: {} } : behaviour;
      const answer = () => void (res.destroyed || res.writeHead(status, headers).end(status < 300 ? 'ok' : 'no'));
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(receiver, {
    url: `https://localhost:${port}${path}`,
    port,
    requests,
    delivered: () =>
      requests.filter((r) => typeof r.answered !== 'string' && (typeof r.answered === 'number' ? r.answered : r.answered.status) < 300),
    plan: (...behaviours: Behaviour[]) => void queue.push(...behaviours),
    waitForRequests: (n: number) =>
      requests.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    pending: () => hung.size,
    close: async () => {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
