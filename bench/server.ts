/**
 * Entry of a server process started by bench/lib/servers.ts: builds the server described by
 * BENCH_SERVER_SPEC (the service, a baseline, or the round-robin proxy in front of other server processes),
 * listens on 127.0.0.1 on a free port, reports the port over IPC, and answers the driver's CPU-time
 * questions (a proxy also tells the requests it sent to each target) until it is told to stop.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { startRoundRobinProxy } from '../test/helpers/round-robin-proxy.js';
import { buildBaseline } from './baselines.js';
import type { FromServer, ServerSpec, ToServer } from './lib/servers.js';

interface Listening {
  port: number;
  /** A proxy's requests sent to each target so far. */
  forwarded?(): number[];
  close(): Promise<void>;
}

function send(msg: FromServer): void {
  process.send?.(msg);
}

async function build(spec: Exclude<ServerSpec, { kind: 'proxy' }>): Promise<FastifyInstance> {
  if (spec.kind === 'app') {
    // The driver migrated the scratch database already; scenarios may have seeded it.
    return buildApp(loadConfig(spec.env), { logger: false, migrate: false });
  }
  return buildBaseline(spec.name, spec.options);
}

async function listen(spec: ServerSpec): Promise<Listening> {
  if (spec.kind === 'proxy') {
    const proxy = await startRoundRobinProxy(spec.targets);
    return { port: Number(new URL(proxy.url).port), forwarded: () => [...proxy.counts], close: proxy.close };
  }
  const app = await build(spec);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no listening address');
  return {
    port: address.port,
    close: () => {
      // the read cache's counters of this run (hits, misses, coalesced waits, safety-net bumps), for the log
      if ('readCacheStats' in app) console.error(`[bench] server ${process.pid}: read cache ${JSON.stringify(app.readCacheStats)}`);
      return app.close();
    },
  };
}

async function main(): Promise<void> {
  const raw = process.env.BENCH_SERVER_SPEC;
  if (!raw || !process.send) throw new Error('bench/server.ts is started by bench/run.ts, not by hand');
  const server = await listen(JSON.parse(raw) as ServerSpec);

  process.on('message', (msg: ToServer) => {
    if (msg.type === 'cpu') {
      const forwarded = server.forwarded?.();
      send({ type: 'cpu', usage: process.cpuUsage(), ...(forwarded ? { forwarded } : {}) });
    } else if (msg.type === 'stop') {
      void server
        .close()
        .catch((err: unknown) => console.error('server close failed:', err))
        .finally(() => process.exit(0));
    }
  });
  // The driver went away (crash, Ctrl-C): do not outlive it.
  process.on('disconnect', () => process.exit(1));
  send({ type: 'listening', port: server.port });
}

main().catch((err: unknown) => {
  send({ type: 'failed', error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  setTimeout(() => process.exit(1), 100);
});
