/**
 * `npm run bench:integrity`: times the cartel analysis of a newsroom with 100,000 reviews by 1,000 bots
 * (bench/integrity/large-newsroom.ts, seeded) on PostgreSQL: the service's analyze (read the window, analyze,
 * store), then its two parts alone (the window read through cursors into acts, the analysis of the acts), each
 * by wall clock and CPU time of this process, `BENCH_INTEGRITY_RUNS` times (default 3), with the machine's load
 * and the peak resident set of the process during each service path.
 * Uses a scratch database `bench_integrity_<random>` on `BENCH_DATABASE_URL` (default
 * postgres://postgres@127.0.0.1:5432/postgres), dropped at the end. `BENCH_INTEGRITY_REVIEWS` and
 * `BENCH_INTEGRITY_BOTS` change the size.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { sql } from 'kysely';
import pg from 'pg';
import { ActCollector } from '../../src/governance/integrity/acts.js';
import { analyzeActs, DEFAULT_PARAMETERS } from '../../src/governance/integrity/cartel-analysis.js';
import { integrityInteractions } from '../../src/composition.js';
import { readInteractionWindow as readWindow } from '../../src/newsroom/interactions-repository.js';
import { createIntegrityService } from '../../src/governance/integrity/service.js';
import type { HumanActor } from '../../src/platform/auth/types.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { runMigrations } from '../../src/platform/db/migrate.js';
import { createTransactor, withTransaction } from '../../src/platform/db/transaction.js';
import { largeNewsroom } from './large-newsroom.js';
import { seedNewsroom } from './seed-newsroom.js';
import type { DB } from '../../src/tables.js';

interface Timing {
  wall: number;
  cpu: number;
}

/** Runs `fn`, adding its wall-clock and this process's CPU time (user + system, ms) to `into`. */
async function timed<T>(into: Timing[], fn: () => Promise<T>): Promise<T> {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const result = await fn();
  const used = process.cpuUsage(cpu);
  into.push({ wall: performance.now() - wall, cpu: (used.user + used.system) / 1000 });
  return result;
}

/**
 * The peak resident set of the process from now until `end`: Linux's high-water mark (VmHWM), reset here through
 * /proc/self/clear_refs, so the seeding before does not count; elsewhere the largest of samples every 5 ms.
 */
function peakRss(): { end(): number } {
  const hwm = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) * 1024;
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return { end: hwm };
  } catch {
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    return {
      end: () => {
        clearInterval(sampler);
        return Math.max(peak, process.memoryUsage().rss);
      },
    };
  }
}

const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const reviews = Number(process.env.BENCH_INTEGRITY_REVIEWS ?? 100_000);
const bots = Number(process.env.BENCH_INTEGRITY_BOTS ?? 1_000);
const runs = Number(process.env.BENCH_INTEGRITY_RUNS ?? 3);
const NOW = Date.parse('2026-11-20T12:00:00.000Z');
const dbName = `bench_integrity_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const url = new URL(base);
url.pathname = `/${dbName}`;
const database = await openDatabase<DB>({ databaseUrl: url.toString(), dataDir: '', poolMax: 4 });
try {
  await runMigrations(database);
  // the plan is dropped once written, so the resident set measured below is the analysis's own
  const counts = await (async () => {
    const { stories, data } = largeNewsroom({ bots, stories: bots * 10, reviews, seed: 1 });
    process.stderr.write(`seeding ${data.reviews.length} reviews by ${bots} bots on ${stories.length} stories...\n`);
    await seedNewsroom(database.db, { stories, proposals: [], data }, NOW);
    return { reviews: data.reviews.length, rewardVotes: data.rewardVotes.length, flags: data.flags.length };
  })();
  global.gc?.(); // with node --expose-gc
  await sql`ANALYZE`.execute(database.db);
  const transactor = createTransactor(database.db, []);
  const service = createIntegrityService({ transactor, clock: { now: () => NOW }, interactions: integrityInteractions });
  const actor: HumanActor = { kind: 'human', actorId: 'bench-admin', linkedHumanId: 'h_bench', verified: true, tier: 'L3' };
  const windowStart = new Date(NOW - 30 * 86_400_000);
  const times = { service: [] as Timing[], read: [] as Timing[], analysis: [] as Timing[] };
  let flagged = 0;
  const rssBefore = process.memoryUsage().rss;
  const peaks: number[] = [];
  for (let i = 0; i < runs; i++) {
    global.gc?.();
    const peak = peakRss();
    const answer = await timed(times.service, () => service.analyze(actor, { actorId: actor.actorId, verified: true }));
    peaks.push(peak.end());
    flagged = answer.clusters.reduce((s, c) => s + c.size, 0);
    const collector = new ActCollector();
    await timed(times.read, () => withTransaction(transactor, (tx) => readWindow(tx, windowStart, collector)));
    await timed(times.analysis, async () => analyzeActs(collector.finish(), DEFAULT_PARAMETERS));
  }
  const fmt = (xs: Timing[]) =>
    `${xs.map((x) => `${(x.wall / 1000).toFixed(2)} s`).join(', ')} wall; CPU of this process ${xs.map((x) => `${(x.cpu / 1000).toFixed(2)} s`).join(', ')}`;
  console.log(`newsroom: ${counts.reviews} reviews by ${bots} bots, ${counts.rewardVotes} reward votes, ${counts.flags} flags`);
  console.log(`flagged members: ${flagged} (planted: ${Math.floor(bots / 100) * 6})`);
  console.log(`POST /v1/admin/governance/cartel/analyze service path (read + analyze + store): ${fmt(times.service)}`);
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
  console.log(`  peak RSS of the process during the service path: ${peaks.map(mb).join(', ')} (${mb(rssBefore)} before the first)`);
  console.log(`  read of the window into acts (cursor batches): ${fmt(times.read)}`);
  console.log(`  analysis of the acts: ${fmt(times.analysis)}`);
  console.log(
    `machine: ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (1, 5, 15 min)`,
  );
} finally {
  await database.close();
  await admin.query(`DROP DATABASE ${dbName}`);
  await admin.end();
}
