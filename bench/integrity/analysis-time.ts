/**
 * `npm run bench:integrity`: times the cartel analysis of a newsroom with 100,000 reviews by 1,000 bots
 * (bench/integrity/large-newsroom.ts, seeded) on PostgreSQL: the service's analyze (load the window, analyze,
 * store) and the analysis alone (wall clock and CPU time), `BENCH_INTEGRITY_RUNS` times each (default 3), with the machine's load
 * and the peak resident set of the process during the service path.
 * Uses a scratch database `bench_integrity_<random>` on `BENCH_DATABASE_URL` (default
 * postgres://postgres@127.0.0.1:5432/postgres), dropped at the end. `BENCH_INTEGRITY_REVIEWS` and
 * `BENCH_INTEGRITY_BOTS` change the size.
 */
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { sql } from 'kysely';
import pg from 'pg';
import { analyzeCartels, DEFAULT_PARAMETERS } from '../../src/governance/integrity/cartel-analysis.js';
import { loadInteractions } from '../../src/governance/integrity/repository.js';
import { createIntegrityService } from '../../src/governance/integrity/service.js';
import type { HumanActor } from '../../src/platform/auth/types.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { runMigrations } from '../../src/platform/db/migrate.js';
import { createTransactor } from '../../src/platform/db/transaction.js';
import { largeNewsroom } from './large-newsroom.js';
import { seedNewsroom } from './seed-newsroom.js';

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
const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '', poolMax: 4 });
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
  const service = createIntegrityService({ db: database.db, transactor: createTransactor(database.db, []), clock: { now: () => NOW } });
  const actor: HumanActor = { kind: 'human', actorId: 'bench-admin', linkedHumanId: 'h_bench', verified: true, tier: 'L3' };
  const windowStart = new Date(NOW - 30 * 86_400_000);
  const times = { service: [] as number[], load: [] as number[], analysis: [] as number[], analysisCpu: [] as number[] };
  let flagged = 0;
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 5);
    const answer = await service.analyze(actor, { actorId: actor.actorId, verified: true });
    clearInterval(sampler);
    times.service.push(performance.now() - t);
    flagged = answer.clusters.reduce((s, c) => s + c.size, 0);
    t = performance.now();
    const loaded = await loadInteractions(database.db, windowStart);
    times.load.push(performance.now() - t);
    t = performance.now();
    const cpu = process.cpuUsage();
    analyzeCartels(loaded, DEFAULT_PARAMETERS);
    times.analysis.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    times.analysisCpu.push((used.user + used.system) / 1000);
  }
  const fmt = (xs: number[]) => `${Math.min(...xs).toFixed(0)} ms best, ${Math.max(...xs).toFixed(0)} ms worst`;
  console.log(`newsroom: ${counts.reviews} reviews by ${bots} bots, ${counts.rewardVotes} reward votes, ${counts.flags} flags`);
  console.log(`flagged members: ${flagged} (planted: ${Math.floor(bots / 100) * 6})`);
  console.log(`POST /v1/admin/governance/cartel/analyze service path (load + analyze + store): ${fmt(times.service)}`);
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
  console.log(`  peak RSS of the process during the service path: ${mb(rssPeak)} (${mb(rssBefore)} before the first)`);
  console.log(`  load of the window: ${fmt(times.load)}`);
  console.log(`  analysis alone: ${fmt(times.analysis)}; CPU time of this process: ${fmt(times.analysisCpu)} (steadier on a busy machine)`);
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
