/**
 * `npm run bench:process-spread`: how much the CPU per response of GET /healthz differs between identical
 * service processes. Starts BENCH_SPREAD_PROCESSES processes of the service (same build, same configuration)
 * and one bare Fastify route (bench/baselines.ts), warms each up, then loads them in turn with autocannon in
 * interleaved slices (BENCH_SPREAD_ROUNDS rounds of BENCH_SPREAD_SLICE_SECONDS each, the order reversed every
 * other round) and prints, per process, the median CPU time per response from the process's own clock, its
 * kernel part and its req/s.
 *
 * `npm run bench -- healthz` measures one service process per run, so its ratio carries whichever state that
 * process's JIT settled in; this shows the spread between processes that the ratio draws from
 * (docs/performance.md, "What a healthz response costs").
 */
import autocannon from 'autocannon';
import { setTimeout as sleep } from 'node:timers/promises';
import { createBenchContext } from './lib/context.js';
import { startServer, type RunningServer } from './lib/servers.js';
import { readSettings } from './lib/settings.js';

const PATH = '/healthz';
const processes = Number(process.env.BENCH_SPREAD_PROCESSES ?? 4);
const rounds = Number(process.env.BENCH_SPREAD_ROUNDS ?? 8);
const sliceSeconds = Number(process.env.BENCH_SPREAD_SLICE_SECONDS ?? 2);
const log = (message: string) => console.error(`[bench] ${message}`);

interface Slice {
  cpuMicros: number;
  systemMicros: number;
  responses: number;
  seconds: number;
}

function load(url: string, seconds: number, connections: number): Promise<number> {
  return new Promise((resolve, reject) =>
    autocannon({ url: `${url}${PATH}`, connections, duration: seconds }, (err, result) => {
      if (err) reject(err);
      else if (result.non2xx || result.errors || result.timeouts)
        reject(new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`));
      else resolve(result.requests.total);
    }),
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const settings = readSettings();
  const ctx = await createBenchContext(settings);
  const servers: { label: string; server: RunningServer; slices: Slice[] }[] = [];
  try {
    const baselineOptions = {
      databaseUrl: ctx.databaseUrl,
      redisUrl: ctx.redisUrl,
      redisKeyPrefix: `${ctx.redisKeyPrefix}baseline:`,
      aud: '',
      poolMax: 10,
    };
    servers.push({
      label: 'bare Fastify route',
      server: await startServer({ kind: 'baseline', name: 'healthz', options: baselineOptions }, settings, 'bare'),
      slices: [],
    });
    for (let i = 1; i <= processes; i++)
      servers.push({
        label: `service process ${i}`,
        server: await startServer({ kind: 'app', env: ctx.appEnv }, settings, `service-${i}`),
        slices: [],
      });
    for (const s of servers) await load(s.server.url, 3, settings.connections);
    log(`${servers.length} processes warmed up; ${rounds} rounds of ${sliceSeconds} s each`);
    for (let round = 0; round < rounds; round++) {
      for (const s of round % 2 === 0 ? servers : [...servers].reverse()) {
        await sleep(settings.pauseMs);
        const before = await s.server.sample();
        const started = performance.now();
        const responses = await load(s.server.url, sliceSeconds, settings.connections);
        const seconds = (performance.now() - started) / 1000;
        const after = await s.server.sample();
        s.slices.push({
          cpuMicros: after.cpuMicros - before.cpuMicros,
          systemMicros: after.systemMicros - before.systemMicros,
          responses,
          seconds,
        });
      }
      log(`round ${round + 1}/${rounds} done`);
    }
  } finally {
    await Promise.all(servers.map((s) => s.server.stop()));
    await ctx.dispose();
  }
  console.log(`GET ${PATH}, ${settings.connections} connections, ${rounds} slices of ${sliceSeconds} s per process, interleaved\n`);
  console.log('| process | CPU per response (median) | of which kernel | req/s (median) | CPU per response, each slice |');
  console.log('|---|--:|--:|--:|---|');
  for (const s of servers) {
    const perResponse = s.slices.map((x) => x.cpuMicros / x.responses);
    console.log(
      `| ${s.label} | ${median(perResponse).toFixed(1)} µs | ${median(s.slices.map((x) => x.systemMicros / x.responses)).toFixed(1)} µs | ` +
        `${Math.round(median(s.slices.map((x) => x.responses / x.seconds)))} | ${perResponse.map((x) => x.toFixed(0)).join(' ')} |`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
