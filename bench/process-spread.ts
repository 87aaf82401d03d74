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
 * (docs/adr/0023-young-generation-flag.md).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createBenchContext } from './lib/context.js';
import { runLoad, type LoadSpec } from './lib/load.js';
import { serverSpec } from './lib/measure.js';
import { startServer, type RunningServer } from './lib/servers.js';
import { readSettings } from './lib/settings.js';
import { healthz } from './scenarios/healthz.js';

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

/** Runs the load for `seconds`; any response but the scenario's status and body fails the run. */
async function load(url: string, spec: LoadSpec, seconds: number, connections: number): Promise<{ responses: number; seconds: number }> {
  const run = await runLoad(url, spec, { connections, durationSeconds: seconds });
  const unexpected = run.responses - (run.statusCounts[String(spec.expectStatus)] ?? 0);
  if (unexpected || run.errors || run.timeouts || run.mismatches)
    throw new Error(
      `${url}: ${unexpected} unexpected statuses, ${run.errors} errors, ${run.timeouts} timeouts, ${run.mismatches} unexpected bodies`,
    );
  return { responses: run.responses, seconds: run.durationSeconds };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const settings = readSettings();
  const ctx = await createBenchContext(settings);
  const servers: { label: string; load: LoadSpec; server: RunningServer; slices: Slice[] }[] = [];
  try {
    const bare = healthz.baseline(ctx);
    const service = healthz.subject(ctx);
    servers.push({
      label: 'bare Fastify route',
      load: bare.load,
      server: await startServer(serverSpec(ctx, bare), settings, 'bare'),
      slices: [],
    });
    for (let i = 1; i <= processes; i++)
      servers.push({
        label: `service process ${i}`,
        load: service.load,
        server: await startServer(serverSpec(ctx, service), settings, `service-${i}`),
        slices: [],
      });
    for (const s of servers) await load(s.server.url, s.load, 3, settings.connections);
    log(`${servers.length} processes warmed up; ${rounds} rounds of ${sliceSeconds} s each`);
    for (let round = 0; round < rounds; round++) {
      for (const s of round % 2 === 0 ? servers : [...servers].reverse()) {
        await sleep(settings.pauseMs);
        const before = await s.server.sample();
        const { responses, seconds } = await load(s.server.url, s.load, sliceSeconds, settings.connections);
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
  console.log(`${healthz.title}, ${settings.connections} connections, ${rounds} slices of ${sliceSeconds} s per process, interleaved\n`);
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
