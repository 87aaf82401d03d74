/**
 * `npm run bench [-- <scenario> ...]`: measures each scenario of bench/scenarios next to its bare baseline in
 * the same run, with autocannon, and prints a markdown table (stdout; progress goes to stderr).
 *
 * How (details in bench/lib/measure.ts and bench/lib/servers.ts): each side runs in its own server process;
 * autocannon runs here. Both are warmed up, then measured in interleaved slices adding up to BENCH_DURATION
 * seconds each, with BENCH_CONNECTIONS connections. Single-use (signed) requests are signed between slices,
 * never while measuring. Every response is checked against the expected status (and body where one is
 * fixed); a side with any other status, a connection error or a timeout is INVALID and the process exits 1.
 * A missed target is reported in the table but does not change the exit code.
 *
 * The real service runs on real PostgreSQL and Redis (BENCH_DATABASE_URL, BENCH_REDIS_URL): a fresh
 * database `bench_<random>` and a Redis key prefix `bench:<random>:`, both removed at the end. The newsroom
 * read scenarios use the seeded database BENCH_NEWSROOM_DB instead (bench/seed/newsroom.ts), seeded once and
 * kept for the next run.
 */
import { cpus } from 'node:os';
import { createBenchContext } from './lib/context.js';
import { failedScenario, measureScenario, type ScenarioResult } from './lib/measure.js';
import { isInvalid, renderChecks, renderTable } from './lib/report.js';
import { NEWSROOM_SEED_VERSION, readSettings } from './lib/settings.js';
import { scenarios } from './scenarios/index.js';
import type { Scenario } from './scenarios/types.js';

class UsageError extends Error {}

const log = (message: string) => console.error(`[bench] ${message}`);

function usage(): string {
  const groups = [...new Set(scenarios.flatMap((s) => s.groups ?? []))];
  return [
    'usage: npm run bench [-- <scenario or group> ...]   (a name also selects <name>-*: `feed` runs feed and feed-deep)',
    `scenarios: ${scenarios.map((s) => s.name).join(', ')}`,
    `groups: ${groups.join(', ')}`,
    'env: BENCH_DURATION (s per side, 10), BENCH_ROUNDS (interleaved slices, 5), BENCH_CONNECTIONS (50),',
    '     BENCH_LATENCY_CONNECTIONS (2, scenarios with a p99 target), BENCH_WARMUP_REQUESTS (10000),',
    '     BENCH_WARMUP_SECONDS (5, cap of each warm-up half), BENCH_FEED_FACTOR (3), BENCH_PAUSE_MS (500),',
    '     BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_REDIS_URL (redis://127.0.0.1:6379),',
    `     BENCH_NEWSROOM_DB (bench_newsroom_v${NEWSROOM_SEED_VERSION}, _x<scale> at another scale: the seeded database of the newsroom reads, kept between runs),`,
    '     BENCH_NEWSROOM_SCALE (1 = 100,000 stories), BENCH_RESEED (0; 1 seeds again), BENCH_KEEP_DB (1; 0 drops it at the end),',
    '     BENCH_CPU_PROF (directory: each server process writes .cpuprofile files in a subdirectory; see bench/profile-summary.ts)',
  ].join('\n');
}

/** Scenarios named by the arguments: a name, a group, or a prefix (`feed` selects `feed` and `feed-deep`). */
function pick(args: string[]): Scenario[] {
  if (args.length === 0) return [...scenarios];
  const selects = (arg: string, s: Scenario) => s.name === arg || s.name.startsWith(`${arg}-`) || (s.groups ?? []).includes(arg);
  const unknown = args.filter((a) => !scenarios.some((s) => selects(a, s)));
  if (unknown.length) throw new UsageError(`unknown scenario ${unknown.join(', ')}`);
  return scenarios.filter((s) => args.some((a) => selects(a, s)));
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.some((a) => a === '--help' || a === '-h' || a === '--list')) {
    console.log(usage());
    return 0;
  }
  const chosen = pick(args);
  const settings = readSettings();
  log(`scratch database on ${settings.databaseUrl.replace(/\/\/[^@/]*@/, '//***@')}, Redis ${settings.redisUrl}`);
  const ctx = await createBenchContext(settings);
  let disposing: Promise<void> | undefined;
  const dispose = () => (disposing ??= ctx.dispose());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: cleaning up`);
      void dispose().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }

  const results: ScenarioResult[] = [];
  try {
    for (const scenario of chosen) {
      log(`scenario ${scenario.name}`);
      try {
        results.push(await measureScenario(ctx, scenario));
      } catch (err) {
        // One broken scenario (setup, server start) must not cost the rows of the others.
        log(`scenario ${scenario.name} FAILED: ${err instanceof Error ? err.message : String(err)}`);
        results.push(failedScenario(scenario, settings, err));
      }
    }
  } finally {
    await dispose();
  }

  const cpu = cpus();
  console.log(
    `\nbench ${new Date().toISOString()}: ${settings.durationSeconds} s per side in ${settings.rounds} interleaved slices, ` +
      `${settings.connections} connections, node ${process.version}, ${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}\n`,
  );
  for (const note of ctx.notes) console.log(`${note}\n`);
  console.log(renderTable(results));
  console.log('\nchecks:');
  console.log(renderChecks(results));
  const invalid = results.some(isInvalid);
  if (invalid) console.log('\nAt least one side is INVALID: its numbers measure failures, not the work.');
  return invalid ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n${usage()}`);
      process.exitCode = 2;
      return;
    }
    console.error(err);
    process.exitCode = 1;
  },
);
