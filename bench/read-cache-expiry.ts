import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Type } from '@sinclair/typebox';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { systemClock } from '../src/platform/clock.js';
import { createMemoryReadGeneration, READ_CACHE_LIFE_SPREAD, readCachePlugin } from '../src/platform/read-cache.js';

/**
 * `npm run bench:read-cache`: what the read cache's per-key lives change under a steady load of hot keys. A server
 * process holds the service's read-cache plugin in front of one story-scoped route whose miss burns
 * BENCH_EXPIRY_MISS_US of CPU (a story read from the database, as the story scenarios measure it) and answers a
 * 6 KB body; the driver reads BENCH_EXPIRY_KEYS stories in a fixed pseudo-random order with 50 connections for
 * BENCH_EXPIRY_SECONDS, and polls the server's counters every second. The first second fills the cache in one
 * burst, as a warm-up or a deploy does. It runs the server with every life equal to BENCH_EXPIRY_TTL_MS (spread 0)
 * and with the service's spread, alternately, BENCH_EXPIRY_PAIRS times, and prints per run the misses (database
 * reads) in the busiest second of each time to live, and the slowest second's req/s. No database or Redis.
 */
const ttlMs = Number(process.env.BENCH_EXPIRY_TTL_MS ?? 10_000);
const seconds = Number(process.env.BENCH_EXPIRY_SECONDS ?? 60);
const keys = Number(process.env.BENCH_EXPIRY_KEYS ?? 2_000);
const missUs = Number(process.env.BENCH_EXPIRY_MISS_US ?? 500);
const pairs = Number(process.env.BENCH_EXPIRY_PAIRS ?? 2);

interface Counters {
  hits: number;
  misses: number;
  coalesced: number;
}

async function serve(spread: number): Promise<void> {
  const app = Fastify({ logger: false });
  await app.register(readCachePlugin, {
    generation: createMemoryReadGeneration(systemClock),
    clock: systemClock,
    ttlMs,
    maxBytes: 512 * 1024 * 1024,
    lifeSpread: spread,
  });
  const body = JSON.stringify({ text: 'x'.repeat(6_000) });
  const strict = Type.Object({}, { additionalProperties: false });
  app.get('/stories/:id', { config: { readCache: { story: 'id' } }, schema: { querystring: strict } }, async (_req, reply) => {
    const until = performance.now() + missUs / 1_000;
    while (performance.now() < until);
    return reply.type('application/json').send(body);
  });
  app.get('/stats', async () => {
    const { hits, misses, coalesced } = app.readCacheStats;
    return { hits, misses, coalesced };
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  process.send?.({ address });
}

async function measure(spread: number) {
  const child = fork(fileURLToPath(import.meta.url), ['serve', String(spread)], { execArgv: process.execArgv });
  const address = await new Promise<string>((resolve) => child.once('message', (m: { address: string }) => resolve(m.address)));
  const stats = async () => (await (await fetch(`${address}/stats`)).json()) as Counters;
  let state = 12345;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state % keys;
  };
  const perSecond: { misses: number; requests: number }[] = [];
  let last = await stats();
  const poll = setInterval(() => {
    void stats().then(
      (now) => {
        const served = (c: Counters) => c.hits + c.misses + c.coalesced;
        perSecond.push({ misses: now.misses - last.misses, requests: served(now) - served(last) });
        last = now;
      },
      () => undefined,
    ); // a poll still on its way when the server stops
  }, 1_000);
  const result = await autocannon({
    url: address,
    connections: 50,
    duration: seconds,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/stories/st_${next()}` }) }],
  });
  clearInterval(poll);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill();
  await exited;
  // the busiest second of each time to live (the first holds the fill)
  const perTtl = Math.max(1, Math.round(ttlMs / 1_000));
  const busiest: number[] = [];
  for (let i = 0; i < perSecond.length; i += perTtl) busiest.push(Math.max(...perSecond.slice(i, i + perTtl).map((s) => s.misses)));
  const misses = perSecond.reduce((sum, s) => sum + s.misses, 0);
  const slowest = Math.min(...perSecond.slice(1, -1).map((s) => s.requests));
  return { spread, misses, busiest, slowest, rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

if (process.argv[2] === 'serve') {
  await serve(Number(process.argv[3]));
} else {
  const out = (line = '') => process.stdout.write(`${line}\n`);
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  out(
    `read cache expiry ${new Date().toISOString()}: ${keys} hot keys, time to live ${ttlMs} ms, ${seconds} s per run, a miss burns ${missUs} µs`,
  );
  out();
  out('| run | lives | req/s | slowest second | p99 ms | database reads | busiest second of each time to live (misses) | load |');
  out('|--:|---|--:|--:|--:|--:|---|---|');
  for (let run = 1; run <= pairs * 2; run += 1) {
    const spread = run % 2 === 1 ? 0 : READ_CACHE_LIFE_SPREAD;
    const r = await measure(spread);
    if (r.errors > 0) throw new Error(`run ${run}: ${r.errors} errors or non-2xx answers`);
    const lives = spread === 0 ? `all ${ttlMs} ms` : `${Math.round(ttlMs * (1 - spread))}-${ttlMs} ms`;
    out(`| ${run} | ${lives} | ${Math.round(r.rps)} | ${r.slowest} | ${r.p99} | ${r.misses} | ${r.busiest.join(', ')} | ${load()} |`);
  }
}
