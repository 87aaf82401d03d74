import { randomBytes } from 'node:crypto';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { sql } from 'kysely';
import pg from 'pg';
import { createClaimChain } from '../src/rewards/claims/chain.js';
import { createClaimsService } from '../src/rewards/claims/service.js';
import { systemClock } from '../src/platform/clock.js';
import { createCursorCodec, cursorKey } from '../src/platform/cursor.js';
import { openDatabase } from '../src/platform/db/database.js';
import { runMigrations } from '../src/platform/db/migrate.js';
import { createTransactor } from '../src/platform/db/transaction.js';

/**
 * `npm run bench:claims`: finalize of one distribution batch over BENCH_CLAIM_RECIPIENTS recipients (default
 * 10,000), each with a verified wallet and two payable payouts, on real PostgreSQL (BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres; a scratch database bench_claims_<random>, dropped at the end).
 * Finalize builds the tree, every leaf's proof, and writes the manifest. Target: under 5 s.
 */
const admin = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const recipients = Number(process.env.BENCH_CLAIM_RECIPIENTS ?? 10_000);
const name = `bench_claims_${randomBytes(4).toString('hex')}`;

const server = new pg.Client({ connectionString: admin });
await server.connect();
await server.query(`CREATE DATABASE ${name}`);
const url = new URL(admin);
url.pathname = `/${name}`;
const database = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://', poolMax: 4 });

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
      story_count, contribution_count, payout_count, role_totals, inputs, created_by, created_at)
    values ('st_bench', 1, 1, 0, 1, 18, now(), 1, 1, 1, '{}', '{}', 'bench', now())`.execute(db);
  await sql`
    insert into payouts (id, settlement_id, story_id, role, beneficiary_kind, beneficiary_id, linked_human_id, recipient_id,
      weight, amount_base, status, created_at, updated_at)
    select 'po_' || i || '_' || k, 'st_bench', 'st_' || i, 'WRITER', 'HUMAN', 'h_bench_' || i, 'h_bench_' || i, 'rcp_' || i,
      1, 1000000000000000::numeric * i + k, 'PAYABLE', now(), now()
    from generate_series(1, ${recipients}) i cross join generate_series(1, 2) k`.execute(db);
  await sql`analyze`.execute(db);

  const claims = createClaimsService({
    db,
    transactor: createTransactor(db, []),
    clock: systemClock,
    cursors: createCursorCodec(cursorKey(undefined, 'bench')),
    // finalize never calls the chain; the rail only has to be configured
    chain: createClaimChain('http://127.0.0.1:9'),
    rail: { enabled: true, distributorAddress: `0x${'11'.repeat(20)}`, minConfirmations: 12, decimals: 18 },
  });
  const actor = { kind: 'human' as const, actorId: 'bench-treasurer', verified: true, linkedHumanId: undefined, tier: 'L0' as const };
  const start = process.hrtime.bigint();
  const batch = await claims.finalize(actor, 90);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  // spot check: a stored proof verifies against the stored root
  const leaf = await db
    .selectFrom('claim_batch_leaves')
    .selectAll()
    .where('batch_id', '=', batch.id)
    .orderBy('leaf_index', 'desc')
    .executeTakeFirstOrThrow();
  const ok = StandardMerkleTree.verify(batch.merkleRoot, ['address', 'uint256'], [leaf.wallet_address, leaf.amount_base], leaf.proof);
  process.stdout.write(
    `finalize: ${batch.leafCount} leaves, ${batch.payoutCount} payouts in ${ms.toFixed(0)} ms (target < 5000 ms); proof of leaf ${leaf.leaf_index} verifies: ${ok}\n`,
  );
  if (!ok || ms >= 5000) process.exitCode = 1;
} finally {
  await database.close();
  await server.query(`DROP DATABASE IF EXISTS ${name}`);
  await server.end();
}
