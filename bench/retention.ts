import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { procCpuMs } from './lib/cpu.js';
import { retentionSteps } from '../src/composition.js';
import { createRetentionService, type StepReport } from '../src/operations/retention/service.js';
import { openDatabase, type Database } from '../src/platform/db/database.js';
import { runMigrations } from '../src/platform/db/migrate.js';
import { createTransactor } from '../src/platform/db/transaction.js';
import { createIdempotencyStore } from '../src/platform/idempotency-repository.js';
import type { DB } from '../src/tables.js';

/**
 * `npm run bench:retention`: the retention command (`npm run retention`) on ten times a busy month of the tables
 * it prunes, on real PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres; a
 * scratch database bench_retention_<random>, dropped at the end). At BENCH_RETENTION_SCALE=1 (the default):
 *   - 2,000,000 idempotency records, half past their expiry;
 *   - 250,000 webhook events, 4 endpoints each: 1,000,000 deliveries (95% delivered, 4% dead, 1% pending, the
 *     pending ones recent), 1.3 attempts each; events spread over 150 days, so 80% of them ended over 30 days ago;
 *   - 200,000 site sessions, half ended; 200,000 login challenges, half expired over an hour ago.
 * While a steady loop of idempotent writes (the service's own store: a new key, begin then complete) runs at
 * BENCH_RETENTION_WRITE_RATE a second on its own connection, it measures that loop alone for
 * BENCH_RETENTION_BASELINE_SECONDS, then during the prune (BENCH_RETENTION_BATCH rows a batch,
 * BENCH_RETENTION_PAUSE_MS between batches), then alone again. Prints rows/s per table, the longest batch (its
 * transaction: the longest any row lock was held), the write loop's p50/p99/max in the three phases, the wall and
 * CPU time of the prune (this process, and the PostgreSQL backend that ran it) and the load average.
 */
const admin = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const scale = Number(process.env.BENCH_RETENTION_SCALE ?? 1);
const batchSize = Number(process.env.BENCH_RETENTION_BATCH ?? 1_000);
const pauseMs = Number(process.env.BENCH_RETENTION_PAUSE_MS ?? 0);
const writeRate = Number(process.env.BENCH_RETENTION_WRITE_RATE ?? 200);
const baselineSeconds = Number(process.env.BENCH_RETENTION_BASELINE_SECONDS ?? 15);
const n = (count: number) => Math.round(count * scale);
const IDEMPOTENCY = n(2_000_000);
const EVENTS = n(250_000);
const ENDPOINTS = 4;
const SESSIONS = n(200_000);
const CHALLENGES = n(200_000);
const name = `bench_retention_${randomBytes(4).toString('hex')}`;

const out = (line = '') => process.stdout.write(`${line}\n`);
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const server = new pg.Client({ connectionString: admin });
await server.connect();
await server.query(`CREATE DATABASE ${name}`);
const url = new URL(admin);
url.pathname = `/${name}`;
/** One connection for the prune (so that its backend's CPU time is the prune's), others for the seed and the writes. */
const database = await openDatabase<DB>({ databaseUrl: url.toString(), dataDir: 'memory://', poolMax: 1 });
// the seed's statements take minutes: no statement limit on this pool
const writer = await openDatabase<DB>({ databaseUrl: url.toString(), dataDir: 'memory://', poolMax: 2, queryTimeoutMs: 3_600_000 });

async function seed(db: Database<DB>['db']): Promise<void> {
  const started = performance.now();
  await sql`
    insert into bots (bot_id, name, source, trust_tier, permissions)
    values ('bot_${sql.raw('0'.repeat(32))}', 'bench bot', 'SELF_SERVE', 'UNVERIFIED', '{}')`.execute(db);
  await sql`
    insert into stories (id, author_bot_id, room, lang, title, summary, body, current_packet_hash, publication_stage,
      review_status, moderation_status, created_at, published_at, updated_at)
    select 'st_' || s, 'bot_${sql.raw('0'.repeat(32))}', 'world', 'en', 'Story ' || s, 'Summary', 'Body',
      md5('p' || s) || md5('q' || s), 'PROVISIONAL', 'EMERGING', 'ALLOWED', now(), now(), now()
    from generate_series(1, 1000) s`.execute(db);
  // in the order they were written (a record expires 24 hours after its write, so the table's physical order is
  // its expiry order, as in service): the first half written over the month before yesterday (expired), the
  // second half in the last 24 hours (live); a response body of about 150 bytes
  await sql`
    insert into idempotency_records (scope, key, request_hash, status_code, response, created_at, expires_at)
    select 'POST /v1/' || (array['candidates', 'reviews', 'comments', 'reward-votes'])[1 + i % 4], 'key-' || i || '-' || md5(i::text),
      md5('h' || i) || md5('g' || i), 202,
      jsonb_build_object('id', 'c_' || md5(i::text), 'status', 'ACCEPTED', 'storyId', 'st_' || (i % 1000), 'at', c),
      c, c + interval '24 hours'
    from (select i, case when i <= ${IDEMPOTENCY / 2}
                         then now() - interval '31 days' + (i::double precision / ${IDEMPOTENCY / 2}) * interval '30 days'
                         else now() - interval '24 hours' + ((i - ${IDEMPOTENCY / 2})::double precision / ${IDEMPOTENCY / 2}) * interval '24 hours' end c
          from generate_series(1, ${IDEMPOTENCY}) i) r`.execute(db);
  // events over the last 150 days: 80% older than 30
  await sql`
    insert into webhook_events (id, type, story_id, occurred_at, payload, created_at)
    select 'whe_' || i, 'story.correction', 'st_' || (1 + i % 1000), to_char(c, 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
      '{"id":"whe_' || i || '","type":"story.correction","data":{"storyId":"st_' || (1 + i % 1000) || '","title":"' || repeat('x', 300) || '"}}', c
    from (select i, now() - (${EVENTS} - i)::double precision / ${EVENTS} * interval '150 days' c from generate_series(1, ${EVENTS}) i) e`.execute(
    db,
  );
  // four deliveries each: pending only in the last day, else 4% dead, the rest delivered a few seconds after the event
  await sql`
    insert into webhook_deliveries (id, event_id, endpoint, status, attempts, next_attempt_at, created_at, last_attempt_at,
      last_status_code, delivered_at, dead_at)
    select 'whd_' || e.seq || '_' || k, e.id, 'https://receiver-' || k || '.example/hook', s, a, e.created_at, e.created_at,
      e.created_at + interval '3 seconds', case when s = 'DELIVERED' then 200 end,
      case when s = 'DELIVERED' then e.created_at + interval '3 seconds' end,
      case when s = 'DEAD' then e.created_at + interval '1 day' end
    from webhook_events e cross join generate_series(1, ${ENDPOINTS}) k,
      lateral (select case when e.created_at > now() - interval '1 day' and (e.seq + k) % 8 = 0 then 'PENDING'
                           when (e.seq * 7 + k) % 25 = 0 then 'DEAD' else 'DELIVERED' end s,
                      1 + ((e.seq + k) % 10 < 3)::int a) x`.execute(db);
  await sql`
    insert into webhook_attempts (id, delivery_id, attempt, started_at, status_code, error, outcome, worker)
    select 'wha_' || d.seq || '_' || n, d.id, n, d.created_at + n * interval '1 second',
      case when n = d.attempts and d.status = 'DELIVERED' then 200 else 503 end,
      case when n = d.attempts and d.status = 'DELIVERED' then null else 'status 503' end,
      case when n < d.attempts or d.status = 'PENDING' then 'RETRY' else d.status end, 'worker-1'
    from webhook_deliveries d cross join generate_series(1, 2) n where n <= d.attempts`.execute(db);
  // sessions written in order, each ending 7 days after its login: the first half logged in over the month
  // before last week (ended), the second half in the last week
  await sql`
    insert into site_sessions (id, data, expires_at)
    select md5('s' || i) || md5('t' || i),
      jsonb_build_object('cookie', jsonb_build_object('originalMaxAge', 604800000, 'httpOnly', true, 'path', '/'),
        'accountId', 'acct_' || md5(i::text), 'csrf', md5('c' || i)),
      c + interval '7 days'
    from (select i, case when i <= ${SESSIONS / 2}
                         then now() - interval '37 days' + (i::double precision / ${SESSIONS / 2}) * interval '30 days'
                         else now() - interval '7 days' + ((i - ${SESSIONS / 2})::double precision / ${SESSIONS / 2}) * interval '7 days' end c
          from generate_series(1, ${SESSIONS}) i) s`.execute(db);
  // challenges written in order, each expiring 5 minutes later: half over the month before the last hour
  // (expired over an hour ago), half in the last hour (kept)
  await sql`
    insert into login_challenges (id, actor_id, action, signal, signal_hash, created_at, expires_at)
    select 'wch_' || i, 'acct_' || md5(i::text), 'svc-login', 'login:wch_' || i, '0x' || md5(i::text) || md5('x' || i), c, c + interval '5 minutes'
    from (select i, case when i <= ${CHALLENGES / 2}
                         then now() - interval '30 days' - interval '70 minutes' + (i::double precision / ${CHALLENGES / 2}) * interval '30 days'
                         else now() - interval '1 hour' + ((i - ${CHALLENGES / 2})::double precision / ${CHALLENGES / 2}) * interval '1 hour' end c
          from generate_series(1, ${CHALLENGES}) i) c`.execute(db);
  await sql`vacuum analyze`.execute(db);
  out(`seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** A steady write loop: one idempotent write (begin, complete) every 1000/rate ms, each one's latency kept. */
function writeLoop() {
  const store = createIdempotencyStore(writer.db, () => Date.now());
  const latencies: number[] = [];
  let running = true;
  let i = 0;
  const done = (async () => {
    const interval = 1000 / writeRate;
    let next = performance.now();
    while (running) {
      const started = performance.now();
      const key = `bench-write-${randomBytes(8).toString('hex')}`;
      await store.begin('POST /v1/bench', key, `h${i++}`);
      await store.complete('POST /v1/bench', key, 202, { ok: true });
      latencies.push(performance.now() - started);
      next += interval;
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
      else next = performance.now();
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return latencies;
    },
  };
}

function summary(latencies: number[], seconds: number): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return `${sorted.length} writes (${(sorted.length / seconds).toFixed(0)}/s), p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms`;
}

async function baseline(label: string): Promise<void> {
  const cpu = process.cpuUsage();
  const loop = writeLoop();
  await sleep(baselineSeconds * 1000);
  const latencies = await loop.stop();
  out(`| ${label} | ${summary(latencies, baselineSeconds)} | ${cpuSeconds(cpu)} s | ${loadavg()} |`);
}

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return ((used.user + used.system) / 1e6).toFixed(1);
};

/** utime + stime of a PostgreSQL backend, in seconds (the server runs on this machine). */
function backendCpu(pid: number): number {
  const ms = procCpuMs(pid);
  if (ms === undefined) throw new Error(`no /proc/${pid}/stat: the bench needs the PostgreSQL server on this machine`);
  return ms / 1000;
}

async function tableSizes(db: Database<DB>['db']): Promise<string> {
  const { rows } = await sql<{ t: string; mb: number }>`
    select c.relname as t, round(pg_total_relation_size(c.oid) / 1048576.0)::int as mb from pg_class c
     where c.relname in ('idempotency_records', 'webhook_events', 'webhook_deliveries', 'webhook_attempts', 'site_sessions', 'login_challenges')
     order by 1`.execute(db);
  return rows.map((r) => `${r.t} ${r.mb} MB`).join(', ');
}

try {
  await runMigrations(database);
  await seed(writer.db);
  await sql`checkpoint`.execute(writer.db).catch((err: Error) => process.stderr.write(`no checkpoint before measuring: ${err.message}\n`));
  out(
    `\n${IDEMPOTENCY} idempotency records, ${EVENTS} events × ${ENDPOINTS} endpoints, ${SESSIONS} sessions, ${CHALLENGES} challenges; ` +
      `batches of ${batchSize}, pause ${pauseMs} ms; write loop ${writeRate}/s`,
  );
  out(`sizes before: ${await tableSizes(writer.db)}`);

  const service = createRetentionService({ transactor: createTransactor(database.db, []) });
  const config = { webhooks: { retentionDays: 30 } } as Parameters<typeof retentionSteps>[1];
  const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db)).rows[0]!.pid;

  const dryStarted = performance.now();
  const dry = await service.run(retentionSteps(new Date(), config), { dryRun: true, batchSize, pauseMs });
  out(
    `dry run ${((performance.now() - dryStarted) / 1000).toFixed(1)} s: ${dry.map((r) => Object.entries(r.rows).map(([t, c]) => `${t} ${c}`)).join(', ')}`,
  );

  out('\n| write loop | latency | CPU of this process | load (1, 5, 15 min) |\n|---|---|---|---|');
  await baseline('alone, before');
  const loop = writeLoop();
  const cpuBefore = process.cpuUsage();
  const pgCpuBefore = backendCpu(pid);
  const started = performance.now();
  const reports: StepReport[] = await service.run(retentionSteps(new Date(), config), { dryRun: false, batchSize, pauseMs });
  const seconds = (performance.now() - started) / 1000;
  const pgCpu = backendCpu(pid) - pgCpuBefore;
  const latencies = await loop.stop();
  const cpu = cpuSeconds(cpuBefore);
  out(`| during the prune | ${summary(latencies, seconds)} | ${cpu} s | ${loadavg()} |`);
  await baseline('alone, after');

  out('\n| table | rows deleted | rows/s | batches | step seconds | longest batch |\n|---|--:|--:|--:|--:|--:|');
  for (const r of reports)
    for (const [table, rows] of Object.entries(r.rows))
      out(
        `| ${table} | ${rows} | ${(rows / r.seconds).toFixed(0)} | ${r.batches} | ${r.seconds.toFixed(1)} | ${r.longestBatchMs.toFixed(0)} ms |`,
      );
  const total = reports.reduce((sum, r) => sum + Object.values(r.rows).reduce((a, b) => a + b, 0), 0);
  out(
    `\nprune: ${total} rows in ${seconds.toFixed(1)} s wall (${(total / seconds).toFixed(0)} rows/s); CPU: PostgreSQL backend ${pgCpu.toFixed(1)} s, ` +
      `this process ${cpu} s (with the write loop); peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; load ${loadavg()}`,
  );
  out(`sizes after: ${await tableSizes(writer.db)}`);
} catch (err) {
  process.exitCode = 1;
  console.error(err);
} finally {
  await database.close();
  await writer.close();
  await server.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await server.end();
}
