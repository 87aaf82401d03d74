import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { appendAudit } from '../../src/platform/audit/audit-log.js';
import { auditHash, GENESIS_HASH } from '../../src/platform/audit/chain.js';
import { verifyAuditChain } from '../../src/platform/audit/verify-chain.js';
import { openDatabase, type Database } from '../../src/platform/db/database.js';
import { runMigrations } from '../../src/platform/db/migrate.js';
import { createTransactor, withTransaction } from '../../src/platform/db/transaction.js';
import { createTestDatabase } from '../helpers/app.js';
import { clonePgliteDir } from '../helpers/db-template.js';
import { needsPostgres } from '../helpers/needs.js';
import { fileRequest, governanceApp } from '../governance/support.js';
import { tsEntry } from '../helpers/ts-entry.js';
import type { DB } from '../../src/tables.js';

const run = promisify(execFile);

/** This process's environment without DATABASE_URL (the CLI must read only what a test hands it). */
function withoutDatabaseUrl(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'DATABASE_URL') env[k] = v;
  return env;
}
const concurrentAppends = needsPostgres('concurrent appends on one PGlite session are serialized by PGlite itself and prove nothing');

/** Appends `n` audit events, each in its own transaction, as the services do. */
async function appendEvents(
  database: Database<DB>,
  n: number,
  details: (i: number) => Record<string, unknown> = (i) => ({ i, ratio: 0.4, note: `event ${i} ✓` }),
) {
  const transactor = createTransactor(database.db, []);
  for (let i = 0; i < n; i++) {
    await withTransaction(transactor, (tx) =>
      appendAudit(tx, {
        scope: i % 2 ? 'GOVERNANCE' : 'CONTROL_PLANE',
        action: 'test.event',
        actor: { actorId: 'tester', linkedHumanId: i % 3 ? 'h_tester' : undefined },
        target: `t_${i}`,
        details: details(i),
        at: new Date(),
      }),
    );
  }
}

/** Runs SQL in one session of the database (as an operator with psql would). */
const exec = (database: Database<DB>, script: string) => database.withSession((s) => s.exec(script));

async function refusal(database: Database<DB>, script: string): Promise<string> {
  try {
    await exec(database, script);
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
}

describe('the audit log is an append-only hash chain', () => {
  test('each row stores the previous row hash and its own hash over its fields; the verifier walks the intact chain', async () => {
    const db = await createTestDatabase();
    try {
      assert.deepEqual(await verifyAuditChain(db.database.db), { ok: true, events: 0, headHash: GENESIS_HASH });
      await appendEvents(db.database, 5);
      const rows = await db.database.db.selectFrom('audit_events').selectAll().orderBy('seq').execute();
      assert.deepEqual(
        rows.map((r) => r.seq),
        ['1', '2', '3', '4', '5'],
      );
      assert.equal(rows[0]!.prev_hash, GENESIS_HASH);
      for (let i = 1; i < rows.length; i++) assert.equal(rows[i]!.prev_hash, rows[i - 1]!.hash);
      const r = rows[2]!;
      const recomputed = auditHash({
        seq: r.seq,
        id: r.id,
        scope: r.scope,
        action: r.action,
        actorId: r.actor_id,
        linkedHumanId: r.linked_human_id,
        target: r.target,
        details: r.details,
        createdAt: r.created_at.toISOString(),
        prevHash: r.prev_hash,
      });
      assert.equal(recomputed, r.hash);
      assert.deepEqual(
        await verifyAuditChain(db.database.db, 2),
        { ok: true, events: 5, headHash: rows[4]!.hash },
        'batches of 2 walk the same chain',
      );
    } finally {
      await db.drop();
    }
  });

  test('the database itself refuses UPDATE, DELETE and TRUNCATE, even to the owner, and an INSERT that does not extend the chain', async () => {
    const db = await createTestDatabase();
    try {
      await appendEvents(db.database, 3);
      assert.match(
        await refusal(db.owner, `UPDATE audit_events SET details = '{"forged":true}' WHERE seq = 2`),
        /append-only: UPDATE refused/,
      );
      assert.match(await refusal(db.owner, 'DELETE FROM audit_events WHERE seq = 3'), /append-only: DELETE refused/);
      assert.match(await refusal(db.owner, 'TRUNCATE audit_events'), /append-only: TRUNCATE refused/);
      const columns = `(seq, id, scope, action, actor_id, target, details, created_at, prev_hash, hash) VALUES`;
      const h = (c: string) => c.repeat(64);
      assert.match(
        await refusal(
          db.owner,
          `INSERT INTO audit_events ${columns} (7, 'au_x', 'GOVERNANCE', 'x', 'a', 't', '{}', now(), '${h('0')}', '${h('1')}')`,
        ),
        /does not extend the chain/,
      );
      assert.match(
        await refusal(
          db.owner,
          `INSERT INTO audit_events ${columns} (4, 'au_y', 'GOVERNANCE', 'x', 'a', 't', '{}', now(), '${h('0')}', '${h('2')}')`,
        ),
        /does not extend the chain/,
      );
      const count = await db.database.db
        .selectFrom('audit_events')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(count.n, 3);
      assert.equal((await verifyAuditChain(db.database.db)).ok, true);
    } finally {
      await db.drop();
    }
  });

  test('a row forged with its triggers disabled (by the owner) is found, and named, by the verifier', async () => {
    const db = await createTestDatabase();
    try {
      await appendEvents(db.database, 5);
      await exec(
        db.owner,
        `ALTER TABLE audit_events DISABLE TRIGGER USER; UPDATE audit_events SET details = '{"i":2,"forged":true}' WHERE seq = 3; ALTER TABLE audit_events ENABLE TRIGGER USER;`,
      );
      const verdict = await verifyAuditChain(db.database.db);
      assert.equal(verdict.ok, false);
      assert.ok(!verdict.ok);
      assert.equal(verdict.broken.seq, '3');
      assert.match(verdict.broken.reason, /hash does not match/);
      assert.equal(verdict.events, 2);
    } finally {
      await db.drop();
    }
  });

  test('a forger who recomputes the forged row hash breaks the next link; a deleted row leaves a gap; both are named', async () => {
    const db = await createTestDatabase();
    try {
      await appendEvents(db.database, 6);
      const row = await db.database.db.selectFrom('audit_events').selectAll().where('seq', '=', '2').executeTakeFirstOrThrow();
      const details = { forged: true };
      const hash = auditHash({
        seq: row.seq,
        id: row.id,
        scope: row.scope,
        action: row.action,
        actorId: row.actor_id,
        linkedHumanId: row.linked_human_id,
        target: row.target,
        details,
        createdAt: row.created_at.toISOString(),
        prevHash: row.prev_hash,
      });
      // session_replication_role = replica skips ordinary triggers (superuser only)
      await exec(
        db.owner,
        `SET session_replication_role = replica; UPDATE audit_events SET details = '{"forged":true}', hash = '${hash}' WHERE seq = 2; SET session_replication_role = origin;`,
      );
      const relinked = await verifyAuditChain(db.database.db);
      assert.ok(!relinked.ok);
      assert.equal(relinked.broken.seq, '3');
      assert.match(relinked.broken.reason, /prev_hash is not the hash of row 2/);

      await exec(
        db.owner,
        `ALTER TABLE audit_events DISABLE TRIGGER USER; DELETE FROM audit_events WHERE seq <= 3; DELETE FROM audit_events WHERE seq = 5; ALTER TABLE audit_events ENABLE TRIGGER USER;`,
      );
      const gap = await verifyAuditChain(db.database.db);
      assert.ok(!gap.ok);
      assert.equal(gap.broken.seq, '4');
      assert.match(gap.broken.reason, /row 1 is missing/);
    } finally {
      await db.drop();
    }
  });

  /** Runs the CLI of `npm run audit:verify` with `env` (DATABASE_URL or DATA_DIR): its exit code and output. */
  const cli = (env: Record<string, string>) =>
    run(process.execPath, tsEntry('src/platform/audit/verify-cli.ts'), {
      env: { ...withoutDatabaseUrl(), NODE_ENV: 'test', ...env },
    }).then(
      (r) => ({ code: 0, out: r.stdout }),
      (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
    );
  const forgeSecondRow = (database: Database<DB>) =>
    exec(
      database,
      `ALTER TABLE audit_events DISABLE TRIGGER USER; UPDATE audit_events SET target = 'elsewhere' WHERE seq = 2; ALTER TABLE audit_events ENABLE TRIGGER USER;`,
    );

  test('npm run audit:verify against the embedded database (DATA_DIR) exits 1 naming the first broken row', async () => {
    // a data directory copied from the migrated test template (a new one would spend seconds in initdb)
    const { dir: dataDir, remove } = await clonePgliteDir();
    try {
      const database = await openDatabase<DB>({ databaseUrl: undefined, dataDir, poolMax: 1 });
      await runMigrations(database);
      await appendEvents(database, 4);
      await forgeSecondRow(database);
      await database.close();
      const broken = await cli({ DATA_DIR: dataDir });
      assert.equal(broken.code, 1, broken.out);
      assert.match(broken.out, /audit chain broken at seq 2 \(id au_[\w-]+\): hash does not match/);
    } finally {
      remove();
    }
  });

  test(
    'npm run audit:verify against PostgreSQL (DATABASE_URL): intact, then broken',
    { skip: needsPostgres('the CLI reads DATABASE_URL') },
    async () => {
      const db = await createTestDatabase();
      try {
        await appendEvents(db.database, 3);
        const intact = await cli({ DATABASE_URL: db.url! });
        assert.equal(intact.code, 0, intact.out);
        assert.match(intact.out, /audit chain intact: 3 events/);
        await forgeSecondRow(db.owner);
        const broken = await cli({ DATABASE_URL: db.url! });
        assert.equal(broken.code, 1, broken.out);
        assert.match(broken.out, /audit chain broken at seq 2/);
      } finally {
        await db.drop();
      }
    },
  );

  test('20 concurrent audited writes through HTTP stay one chain (real PostgreSQL)', { skip: concurrentAppends }, async () => {
    const g = await governanceApp();
    try {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          fileRequest(g, { action: 'governance.emergency.clear', target: 'emergency', payload: { emergencyId: `em_${i}` } }),
        ),
      );
      assert.deepEqual(
        results.map((r) => r.status),
        Array(20).fill(202),
      );
      const rows = await g.t.db.database.db
        .selectFrom('audit_events')
        .select(['seq', 'prev_hash', 'hash', 'target'])
        .orderBy('seq')
        .execute();
      assert.equal(rows.length, 20);
      assert.deepEqual(new Set(rows.map((r) => r.target)), new Set(results.map((r) => r.body.id)));
      const verdict = await verifyAuditChain(g.t.db.database.db);
      assert.deepEqual(verdict, { ok: true, events: 20, headHash: rows[19]!.hash });
    } finally {
      await g.t.close();
    }
  });
});
