import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { postgresCpuMs } from './lib/cpu.js';
import { noCartelHolds } from '../src/rewards/settlements/cartel-hook.js';
import { createSettlementService } from '../src/rewards/settlements/service.js';
import { moneyGate, settlementContributions } from '../src/composition.js';
import { systemClock } from '../src/platform/clock.js';
import { createCursorCodec, cursorKey } from '../src/platform/cursor.js';
import { openDatabase } from '../src/platform/db/database.js';
import { runMigrations } from '../src/platform/db/migrate.js';
import { createTransactor } from '../src/platform/db/transaction.js';
import type { DB } from '../src/tables.js';

/**
 * `npm run bench:settlement`: settlement preview and run over BENCH_SETTLEMENT_CONTRIBUTIONS contributions
 * (default 100,000) and 10,000 recipients on real PostgreSQL (BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres; a scratch database bench_settlement_<random>, dropped at the
 * end). Each of 5,000 closed, graduated stories has a writer, a source-diversity credit and 18 fact-checkers
 * drawn from 10,000 bots, each bot owned by its own recipient with a verified wallet. Prints wall time, CPU and
 * the peak resident set and heap growth of each phase, then a baseline of the same run (its payouts copied into a
 * bare table) and the run's time over the baseline's. Target: the run under 2 s (a million: under 10 s).
 * BENCH_SETTLEMENT_READ_IN_PARTS=0 reads the preview's work units in one statement, as a service on one connection
 * (PGlite) does.
 */
const admin = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const contributions = Number(process.env.BENCH_SETTLEMENT_CONTRIBUTIONS ?? 100_000);
const RECIPIENTS = 10_000;
const PER_STORY = 20; // 1 writer + 1 source diversity + 18 fact-checkers
const stories = Math.ceil(contributions / PER_STORY);
const name = `bench_settlement_${randomBytes(4).toString('hex')}`;

const server = new pg.Client({ connectionString: admin });
await server.connect();
await server.query(`CREATE DATABASE ${name}`);
const url = new URL(admin);
url.pathname = `/${name}`;
const database = await openDatabase<DB>({ databaseUrl: url.toString(), dataDir: 'memory://', poolMax: 4 });

/** A process's CPU time (user and system, all its threads: the event loop's and libuv's pool) in ms. */
const cpu = (used: NodeJS.CpuUsage) => ((used.user + used.system) / 1000).toFixed(0);

/** Each measured phase's wall time in ms, by label. */
const times = new Map<string, number>();

async function measure<T>(label: string, fn: () => Promise<T>): Promise<T> {
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let rss = process.memoryUsage().rss;
  let heap = heapBefore;
  let heapTotal = 0;
  let external = 0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
    heapTotal = Math.max(heapTotal, m.heapTotal);
    external = Math.max(external, m.external);
  }, 5);
  const start = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const serverBefore = postgresCpuMs();
  try {
    return await fn();
  } finally {
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    times.set(label, ms);
    clearInterval(sampler);
    const mb = (b: number) => (b / 1024 / 1024).toFixed(0);
    const serverAfter = postgresCpuMs();
    const server = serverBefore === null || serverAfter === null ? 'n/a' : `${(serverAfter - serverBefore).toFixed(0)} ms`;
    process.stdout.write(
      `| ${label} | ${ms.toFixed(0)} ms | ${cpu(process.cpuUsage(cpuBefore))} ms | ${server} | ${mb(rss)} MB | +${mb(heap - heapBefore)} MB | ${mb(heapTotal)} MB | ${mb(external)} MB |\n`,
    );
  }
}

/** Every payout row in COPY's binary format, as the database sends it (header and trailer included). */
async function exportPayouts(client: pg.Client): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  await pipeline(client.query(copyTo('COPY payouts TO STDOUT WITH (FORMAT binary)')), sink);
  return chunks;
}

/** Exported payout rows into `table`. */
async function copyInto(client: pg.Client, table: string, rows: Buffer[]): Promise<void> {
  await pipeline(Readable.from(rows), client.query(copyFrom(`COPY ${table} FROM STDIN WITH (FORMAT binary)`)));
}

const BASELINE = 'baseline: its payouts into a bare table';

try {
  await runMigrations(database);
  const db = database.db;
  // The seed's statements write up to 900,000 rows each, past the pool's 30 s statement limit on a slow machine:
  // they run in a session of their own, which has none (the service measured below keeps the pool's limits).
  await measure('seed', () =>
    database.withSession(async (s) => {
      await s.exec(`
      insert into bots (bot_id, name, source, trust_tier, linked_human_id, wallet_address, wallet_chain_id, verified_at, permissions)
      select 'bot_' || lpad(to_hex(i), 32, '0'), 'bench bot ' || i, 'SELF_SERVE', 'VERIFIED', 'h_bench_' || i,
        '0x' || lpad(to_hex(i), 40, '0'), 'eip155:480', now(), '{}'
      from generate_series(1, ${RECIPIENTS}) i`);
      await s.exec(`
      insert into reward_recipients (id, linked_human_id, actor_id, terms_version, terms_accepted_at, wallet_address,
        wallet_chain_id, wallet_verified_at, created_at, updated_at)
      select 'rcp_' || i, 'h_bench_' || i, 'actor_' || i, '2026-11', now(), '0x' || lpad(to_hex(i), 40, '0'), 1, now(), now(), now()
      from generate_series(1, ${RECIPIENTS}) i`);
      await s.exec(`
      insert into stories (id, author_bot_id, room, lang, title, summary, body, current_packet_hash, publication_stage,
        review_status, moderation_status, created_at, published_at, graduated_at, reward_window_ends_at, updated_at)
      select 'st_' || s, 'bot_' || lpad(to_hex(1 + s % ${RECIPIENTS}), 32, '0'), 'world', 'en', 'Story ' || s, 'Summary', 'Body',
        md5('p' || s) || md5('q' || s), 'GRADUATED', 'CLEAR', 'ALLOWED', now() - interval '5 days', now() - interval '4 days',
        now() - interval '3 days', now() - interval '1 day', now()
      from generate_series(1, ${stories}) s`);
      await s.exec(`
      insert into story_versions (story_id, version, packet_hash, packet, created_by, created_at)
      select id, 1, current_packet_hash, '{}'::jsonb, author_bot_id, now() - interval '5 days' from stories`);
      await s.exec(`
      insert into story_sources (id, story_id, url, added_in_version)
      select 'src_' || id, id, 'https://publisher-' || seq % 97 || '.example/' || id, 1 from stories`);
      await s.exec(`
      insert into agent_reviews (id, story_id, packet_hash, bot_id, verified, kind, weight)
      select 'ar_' || s.seq || '_' || k, s.id, s.current_packet_hash,
        'bot_' || lpad(to_hex(1 + (s.seq * 37 + k * 101) % ${RECIPIENTS}), 32, '0'), k % 3 = 0, 'ATTESTATION', 1 + (k % 3 = 0)::int
      from stories s cross join generate_series(1, ${PER_STORY - 2}) k`);
      await s.exec(`
      insert into reward_votes (id, story_id, actor_id, verified, vote, weight)
      select 'rv_' || seq, id, 'voter_' || seq, true, 'UP', 1 + seq % 3 from stories`);
      await s.exec(`analyze`);
    }),
  );
  // The seed writes a few hundred MB of WAL: a checkpoint it makes due would otherwise fall inside the measured
  // phases. Needs the pg_checkpoint role (or a superuser); without it the phases just run as they come.
  await sql`checkpoint`
    .execute(database.db)
    .catch((err: Error) => process.stderr.write(`no checkpoint before measuring: ${err.message}\n`));
  const service = createSettlementService({
    db,
    transactor: createTransactor(db, []),
    clock: systemClock,
    decimals: 18,
    cartelHolds: noCartelHolds,
    contributions: settlementContributions,
    controlPlane: moneyGate,
    cursors: createCursorCodec(cursorKey(undefined, 'bench')),
    readInParts: process.env.BENCH_SETTLEMENT_READ_IN_PARTS !== '0',
  });
  const actor = { kind: 'human' as const, actorId: 'bench-treasurer', verified: true, linkedHumanId: undefined, tier: 'L0' as const };
  process.stdout.write(
    `\n${contributions} contributions, ${RECIPIENTS} recipients, ${stories} stories\n\n| phase | time | process CPU | PostgreSQL CPU | peak RSS | heap growth | peak heap reserved | peak outside the heap |\n|---|---|---|---|---|---|---|---|\n`,
  );
  const preview = await measure('preview', () => service.preview(actor, '1000000'));
  const run = await measure('run', () => service.run(actor, '1000000'));
  // The baseline of the same run: the run's payouts, as the database sends them (binary COPY), copied back into a
  // bare copy of the table (no index, no check, no trigger) on a connection of their own. That is the floor of the
  // run's largest step on this machine at this moment, so run / baseline moves less than the run's time between
  // machines and minutes (docs/performance.md).
  // The connection stays open past the measure, so that its backend's CPU is counted (an ended one leaves /proc).
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const rows = await exportPayouts(client);
    await client.query('CREATE TABLE bare_payouts (LIKE payouts)'); // LIKE copies no index, check or trigger
    await measure(BASELINE, () => copyInto(client, 'bare_payouts', rows));
  } finally {
    await client.end();
  }
  const ratio = times.get('run')! / times.get(BASELINE)!;
  process.stdout.write(
    `\npreview: ${preview.contributionCount} contributions, ${preview.beneficiaries.length} beneficiaries; run: ${run.payoutCount} payouts, escrow ${run.escrow.display}, paid ${run.paid.display}\nrun / baseline: ${ratio.toFixed(2)}\n`,
  );
} finally {
  await database.close();
  await server.query(`DROP DATABASE IF EXISTS ${name}`);
  await server.end();
}
