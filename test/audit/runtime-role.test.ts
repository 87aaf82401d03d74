import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { appendAudit } from '../../src/platform/audit/audit-log.js';
import { verifyAuditChain } from '../../src/platform/audit/verify-chain.js';
import type { Database } from '../../src/platform/db/database.js';
import { mayAlterSchema } from '../../src/platform/db/roles.js';
import { createTransactor, withTransaction } from '../../src/platform/db/transaction.js';
import { createTestDatabase } from '../helpers/app.js';
import { RUNTIME_LOGIN } from '../helpers/db-template.js';
import { needsPostgres } from '../helpers/needs.js';
import { fileRequest, governanceApp } from '../governance/support.js';
import { tsEntry } from '../helpers/ts-entry.js';
import type { DB } from '../../src/tables.js';

/**
 * The service connects to PostgreSQL as the runtime role (migrations/0001_platform.sql), which cannot undo
 * what guards the audit chain: the triggers that refuse UPDATE, DELETE and TRUNCATE, and the chain's own rows.
 * PGlite has a single role, so these run on the test server only.
 */
const onServer = needsPostgres('PGlite has a single (superuser) role; the runtime role exists on a server');
const run = promisify(execFile);

async function appendEvents(database: Database<DB>, n: number) {
  const transactor = createTransactor(database.db, []);
  for (let i = 0; i < n; i++)
    await withTransaction(transactor, (tx) =>
      appendAudit(tx, {
        scope: 'GOVERNANCE',
        action: 'test.event',
        actor: { actorId: 'tester' },
        target: `t_${i}`,
        details: { i },
        at: new Date(),
      }),
    );
}

/** The error of `script` run in one session of `database`, or 'accepted'. */
async function refusal(database: Database<DB>, script: string): Promise<string> {
  try {
    await database.withSession((s) => s.exec(script));
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
}

describe('the runtime role cannot forge the audit chain', () => {
  test(
    'as the runtime role: UPDATE, DELETE, TRUNCATE, disabling triggers, replica mode, DROP and SET ROLE are refused',
    { skip: onServer },
    async () => {
      const db = await createTestDatabase();
      try {
        const who = await sql<{ user: string }>`SELECT current_user AS user`.execute(db.database.db);
        assert.equal(who.rows[0]!.user, RUNTIME_LOGIN, 'the service connection of the tests is the runtime login');
        assert.equal(await mayAlterSchema(db.database.db), false);
        assert.equal(await mayAlterSchema(db.owner.db), true, 'the owner (here a superuser) may');

        await appendEvents(db.database, 3); // the service's own appends work
        const refusals: [string, RegExp][] = [
          [`UPDATE audit_events SET details = '{"forged":true}' WHERE seq = 2`, /permission denied for table audit_events/],
          ['DELETE FROM audit_events WHERE seq = 3', /permission denied for table audit_events/],
          ['TRUNCATE audit_events', /permission denied for table audit_events/],
          ['ALTER TABLE audit_events DISABLE TRIGGER USER', /must be owner of table audit_events/],
          ['ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update_delete', /must be owner of table audit_events/],
          ['DROP TRIGGER audit_events_no_update_delete ON audit_events', /must be owner of (table|relation) audit_events/],
          [
            `CREATE OR REPLACE FUNCTION audit_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$`,
            // PostgreSQL 15 gives PUBLIC no CREATE on schema public; before 15 the ownership check refuses it
            /permission denied for schema public|must be owner of function audit_events_refuse_change/,
          ],
          ['SET session_replication_role = replica', /permission denied to set parameter "session_replication_role"/],
          ['SET ROLE postgres', /permission denied to set role "postgres"/],
          ['DROP TABLE audit_events', /must be owner of table audit_events/],
          // the other record tables take rows and never change them
          ['UPDATE ledger_events SET title = title', /permission denied for table ledger_events/],
          ['DELETE FROM comments', /permission denied for table comments/],
        ];
        for (const [script, refused] of refusals) assert.match(await refusal(db.database, script), refused, script);

        const rows = await db.owner.db.selectFrom('audit_events').select(['seq', 'details']).orderBy('seq').execute();
        assert.deepEqual(
          rows.map((r) => [r.seq, r.details]),
          [
            ['1', { i: 0 }],
            ['2', { i: 1 }],
            ['3', { i: 2 }],
          ],
          'nothing was changed',
        );
        const triggers = await sql<{ tgname: string; tgenabled: string }>`
        SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid = 'audit_events'::regclass AND NOT tgisinternal ORDER BY tgname`.execute(
          db.owner.db,
        );
        assert.deepEqual(
          triggers.rows.map((t) => [t.tgname, t.tgenabled]),
          [
            ['audit_events_extend_chain', 'O'],
            ['audit_events_no_truncate', 'O'],
            ['audit_events_no_update_delete', 'O'],
          ],
          'every trigger still fires',
        );
        const verdict = await verifyAuditChain(db.database.db);
        assert.ok(verdict.ok, 'the chain verifies, read as the runtime role');
        assert.equal(verdict.events, 3);
      } finally {
        await db.drop();
      }
    },
  );

  test(
    'a governance change through the service (runtime role) appends to the chain; npm run audit:verify says intact',
    { skip: onServer },
    async () => {
      const g = await governanceApp();
      try {
        const who = await sql<{ user: string }>`SELECT current_user AS user`.execute(g.t.app.ctx.database.db);
        assert.equal(who.rows[0]!.user, RUNTIME_LOGIN);
        const filed = await fileRequest(g, { action: 'governance.emergency.clear', target: 'emergency', payload: { emergencyId: 'em_1' } });
        assert.equal(filed.status, 202, JSON.stringify(filed.body));
        const rows = await g.t.db.database.db.selectFrom('audit_events').select(['seq', 'target']).orderBy('seq').execute();
        assert.deepEqual(
          rows.map((r) => r.target),
          [filed.body.id],
        );
        const env: Record<string, string> = {};
        for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'MIGRATION_DATABASE_URL') env[k] = v;
        const verify = await run(process.execPath, tsEntry('src/platform/audit/verify-cli.ts'), {
          env: { ...env, NODE_ENV: 'test', DATABASE_URL: g.t.db.url! },
        });
        assert.match(verify.stdout, /audit chain intact: 1 events/);
      } finally {
        await g.t.close();
      }
    },
  );
});
