import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The load balancer in front of several service processes: the multi-instance tests and `npm run chaos`
 * (test/chaos/harness.ts) run it in the test's process, the bench (`instances` scenarios) in a process of its own
 * (bench/server.ts).
 */

export interface RoundRobinProxy {
  url: string;
  /** Requests forwarded to each target, by index. */
  counts: number[];
  close(): Promise<void>;
}

/** A small HTTP proxy that sends each request to the next target in turn (what a load balancer does). */
export async function startRoundRobinProxy(targets: string[]): Promise<RoundRobinProxy> {
  let next = 0;
  const counts = targets.map(() => 0);
  const server: Server = createHttpServer((req, res) => {
    const i = next++ % targets.length;
    counts[i]!++;
    const target = new URL(targets[i]!);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
