import { gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { sql } from 'kysely';
import pg from 'pg';
import { procCpuMs } from './lib/cpu.js';
import { createClaimChain } from '../src/rewards/claims/chain.js';
import { proofHashes } from '../src/rewards/claims/merkle.js';
import { createClaimsService } from '../src/rewards/claims/service.js';
import { moneyGate } from '../src/composition.js';
import { systemClock } from '../src/platform/clock.js';
import { createCursorCodec, cursorKey } from '../src/platform/cursor.js';
import { openDatabase, type Db } from '../src/platform/db/database.js';
import { runMigrations } from '../src/platform/db/migrate.js';
import { createTransactor } from '../src/platform/db/transaction.js';
import type { DB } from '../src/tables.js';

/**
 * `npm run bench:claims`: finalize of one distribution batch over BENCH_CLAIM_RECIPIENTS recipients (default
 * 10,000), each with a verified wallet and two payable payouts, on real PostgreSQL (BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres; a scratch database bench_claims_<random>, dropped at the end).
 * Finalize builds the tree, every leaf's proof, and writes the manifest. Targets (docs/performance.md): 10,000
 * recipients under 5 s, 100,000 under 10 s. Besides the time it prints this process' CPU time and peak RSS during
 * the finalize, the CPU time of the database's sessions (read from /proc, when the server runs on this machine)
 * and the load average: on a shared machine the CPU times are steadier than the time.
 */
const admin = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const recipients = Number(process.env.BENCH_CLAIM_RECIPIENTS ?? 10_000);
const targetMs = recipients <= 10_000 ? 5_000 : 10_000;
const name = `bench_claims_${randomBytes(4).toString('hex')}`;

const server = new pg.Client({ connectionString: admin });
await server.connect();
await server.query(`CREATE DATABASE ${name}`);
const url = new URL(admin);
url.pathname = `/${name}`;
const database = await openDatabase<DB>({ databaseUrl: url.toString(), dataDir: 'memory://', poolMax: 4 });

try {
  await runMigrations(database);
  const db = database.db;
  await sql`
    insert into reward_recipients (id, linked_human_id, actor_id, terms_version, terms_accepted_at, wallet_address,
      wallet_chain_id, wallet_verified_at, created_at, updated_at)
    select 'rcp_' || i, 'h_bench_' || i, 'actor_' || i, '2026-11', now(), '0x' || lpad(to_hex(i), 40, '0'), 1, now(), now(), now()
    from generate_series(1, ${recipients}) i`.execute(db);
  await sql`
    insert into settlements (id, policy_version, pool_base, escrow_base, paid_base, token_decimals, windows_closed_before,
      story_count, contribution_count, payout_count, role_totals, inputs_gzip, created_by, created_at)
    values ('st_bench', 1, 1, 0, 1, 18, now(), 1, 1, 1, '{}', ${gzipSync('{}')}, 'bench', now())`.execute(db);
  // ids of the form a settlement run gives them (`po-` and the seq: payout_id_of)
  await sql`
    insert into payouts (id, seq, settlement_id, story_id, role, beneficiary_kind, beneficiary_id, linked_human_id, recipient_id,
      weight, amount_base, status, created_at, updated_at)
    select 'po-' || s, s, 'st_bench', 'st_' || i, 'WRITER', 'HUMAN', 'h_bench_' || i, 'h_bench_' || i, 'rcp_' || i,
      1, 1000000000000000::numeric * i + k, 'PAYABLE', now(), now()
    from (select nextval(pg_get_serial_sequence('payouts', 'seq')) s, i, k
      from generate_series(1, ${recipients}) i cross join generate_series(1, 2) k) g`.execute(db);
  await sql`analyze`.execute(db);

  const claims = createClaimsService({
    db,
    transactor: createTransactor(db, []),
    clock: systemClock,
    cursors: createCursorCodec(cursorKey(undefined, 'bench')),
    // finalize never calls the chain; the rail only has to be configured
    chain: createClaimChain('http://127.0.0.1:9'),
    controlPlane: moneyGate,
    rail: { enabled: true, distributorAddress: `0x${'11'.repeat(20)}`, minConfirmations: 12, decimals: 18 },
  });
  const actor = { kind: 'human' as const, actorId: 'bench-treasurer', verified: true, linkedHumanId: undefined, tier: 'L0' as const };
  const sessions = await backendCpu(db, new Map());
  const cpu = process.cpuUsage();
  let rss = process.memoryUsage().rss;
  const sampler = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 5);
  const start = process.hrtime.bigint();
  const batch = await claims.finalize(actor, 90);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  clearInterval(sampler);
  const used = process.cpuUsage(cpu);
  const databaseCpu = sessions && (await backendCpu(db, sessions));
  // spot check: a stored proof verifies against the stored root
  const leaf = await db
    .selectFrom('claim_batch_leaves')
    .selectAll()
    .where('batch_id', '=', batch.id)
    .orderBy('leaf_index', 'desc')
    .executeTakeFirstOrThrow();
  const ok = StandardMerkleTree.verify(
    batch.merkleRoot,
    ['address', 'uint256'],
    [leaf.wallet_address, leaf.amount_base],
    proofHashes(leaf.proof),
  );
  const databaseMs = databaseCpu ? [...databaseCpu.values()].reduce((a, b) => a + b, 0) : undefined;
  process.stdout.write(
    `finalize: ${batch.leafCount} leaves, ${batch.payoutCount} payouts in ${ms.toFixed(0)} ms (target < ${targetMs} ms); proof of leaf ${leaf.leaf_index} verifies: ${ok}\n` +
      `  CPU time: this process ${((used.user + used.system) / 1000).toFixed(0)} ms, database sessions ${databaseMs === undefined ? 'not readable' : `${databaseMs.toFixed(0)} ms`}; ` +
      `peak RSS ${(rss / 1048576).toFixed(0)} MB; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}\n`,
  );
  if (!ok || ms >= targetMs) process.exitCode = 1;
} finally {
  await database.close();
  await server.query(`DROP DATABASE IF EXISTS ${name}`);
  await server.end();
}

/**
 * The CPU time (ms) of each session of the scratch database since `before` (a session opened meanwhile counts
 * whole): utime + stime of its server process in /proc; undefined when the server is not on this machine.
 */
async function backendCpu(db: Db<DB>, before: Map<number, number>): Promise<Map<number, number> | undefined> {
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()`.execute(db);
  const now = new Map<number, number>();
  for (const { pid } of rows) {
    const ms = procCpuMs(pid);
    if (ms === undefined) return undefined;
    now.set(pid, ms - (before.get(pid) ?? 0));
  }
  return now;
}
