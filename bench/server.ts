/**
 * Entry of a server process started by bench/lib/servers.ts: builds the server described by
 * BENCH_SERVER_SPEC, listens on 127.0.0.1 on a free port, reports the port over IPC, and answers the
 * driver's CPU-time questions until it is told to stop.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { buildBaseline } from './baselines.js';
import type { FromServer, ServerSpec, ToServer } from './lib/servers.js';

function send(msg: FromServer): void {
  process.send?.(msg);
}

async function build(spec: ServerSpec): Promise<FastifyInstance> {
  if (spec.kind === 'app') {
    // The driver migrated the scratch database already; scenarios may have seeded it.
    return buildApp(loadConfig(spec.env), { logger: false, migrate: false });
  }
  return buildBaseline(spec.name, spec.options);
}

async function main(): Promise<void> {
  const raw = process.env.BENCH_SERVER_SPEC;
  if (!raw || !process.send) throw new Error('bench/server.ts is started by bench/run.ts, not by hand');
  const spec = JSON.parse(raw) as ServerSpec;
  const app = await build(spec);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no listening address');

  process.on('message', (msg: ToServer) => {
    if (msg.type === 'cpu') send({ type: 'cpu', usage: process.cpuUsage() });
    else if (msg.type === 'stop') {
      // the read cache's counters of this run (hits, misses, coalesced waits, safety-net bumps), for the log
      if ('readCacheStats' in app) console.error(`[bench] server ${process.pid}: read cache ${JSON.stringify(app.readCacheStats)}`);
      void app
        .close()
        .catch((err: unknown) => console.error('server close failed:', err))
        .finally(() => process.exit(0));
    }
  });
  // The driver went away (crash, Ctrl-C): do not outlive it.
  process.on('disconnect', () => process.exit(1));
  send({ type: 'listening', port: address.port });
}

main().catch((err: unknown) => {
  send({ type: 'failed', error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  setTimeout(() => process.exit(1), 100);
});
