import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { pendingMigrations } from '../../src/platform/db/migrate.js';
import { createEmptyDatabase, createTestDatabase, testEnv } from '../helpers/app.js';
import { RUNTIME_LOGIN } from '../helpers/db-template.js';
import { needsPostgres } from '../helpers/needs.js';

/**
 * What the runtime role (created by migrations/0001_platform.sql; each context's migration grants it its tables) may
 * do to each table, by class. A migration that adds a table or a sequence grants the runtime role its class's rights and adds the table here; the first
 * test fails for a table or sequence whose grants are missing or wider than its class, the second for code
 * that writes a table in a way its class does not allow.
 */
type Privilege = 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE';
const READ: Privilege[] = ['SELECT'];
/** Records: rows are added, never changed or removed (the audit chain, the ledger, votes, versions, attempts, …). */
const RECORD: Privilege[] = ['SELECT', 'INSERT'];
/** State that moves on (UPDATE, upserts, rows locked FOR UPDATE), never removed. */
const STATE: Privilege[] = ['SELECT', 'INSERT', 'UPDATE'];
/** Sets rows are added to and removed from. */
const SET: Privilege[] = ['SELECT', 'INSERT', 'DELETE'];
/** Short-lived rows, updated and pruned. */
const TRANSIENT: Privilege[] = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'];
/** Records kept for a retention period: added, never changed, removed by the retention command once it is over. */
const RETAINED_RECORD: Privilege[] = ['SELECT', 'INSERT', 'DELETE'];
/** State kept for a retention period: moves on, then is removed by the retention command. */
const RETAINED_STATE: Privilege[] = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'];

const TABLES: Record<string, Privilege[]> = {
  schema_migrations: READ,
  bot_payout_owners: READ,
  ...Object.fromEntries(
    [
      'audit_events',
      'ledger_events',
      'story_versions',
      'candidates',
      'safety_traces',
      'agent_reviews',
      'revision_votes',
      'flags',
      'control_plane_approvals',
      'quarantine_decisions',
      'story_corrections',
      'integrity_analyses',
      'integrity_flagged_members',
      'integrity_finding_actions',
      'rewards_policy_versions',
      'settled_stories',
      'review_case_events',
      'claim_batch_leaves',
      'claim_batch_payouts',
      'claim_receipts',
      'claim_batch_evidence',
      'payout_holders',
      'search_words',
      'display_name_history',
    ].map((t) => [t, RECORD]),
  ),
  ...Object.fromEntries(
    [
      'bots',
      'bot_keys',
      'human_identities',
      'user_preferences',
      'governance_parameters',
      'stories',
      'story_sources',
      'revision_proposals',
      'verified_human_actions',
      'consensus_snapshots',
      'actor_bindings',
      'governance_proposals',
      'governance_emergencies',
      'control_plane_requests',
      'source_statuses',
      'quarantine_items',
      'legal_holds',
      'reward_recipients',
      'reward_wallet_challenges',
      'paid_action_usage',
      'settlements',
      'payouts',
      'review_cases',
      'claim_batches',
      'bot_owner_challenges',
      'bot_owners',
      'site_accounts',
      'display_names',
      'reader_notifications',
      // a comment's author edits or deletes it (the row stays, emptied); a reader changes their vote
      'comments',
      'reward_votes',
    ].map((t) => [t, STATE]),
  ),
  ...Object.fromEntries(['user_bookmarks', 'user_topics', 'reward_story_freezes', 'webhook_disabled_endpoints'].map((t) => [t, SET])),
  ...Object.fromEntries(['idempotency_records', 'login_challenges', 'reading_history', 'site_sessions'].map((t) => [t, TRANSIENT])),
  webhook_events: RETAINED_RECORD,
  webhook_attempts: RETAINED_RECORD,
  webhook_deliveries: RETAINED_STATE,
};

/** Sequences: USAGE (nextval) for all; UPDATE too where the code calls setval. */
const SEQUENCE_UPDATE = new Set(['payouts_seq_seq']);

const TABLE_PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'];

test('every table and sequence grants the runtime role what its class needs and nothing more; the role owns nothing', async () => {
  const db = await createTestDatabase();
  try {
    const q = db.owner.db;
    const tables = await sql<{ name: string; privileges: string[] }>`
      SELECT c.relname AS name,
             array(SELECT p FROM unnest(${TABLE_PRIVILEGES}::text[]) p WHERE has_table_privilege('newsroom_runtime', c.oid, p)) AS privileges
        FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
       ORDER BY 1`.execute(q);
    const unlisted = tables.rows.map((t) => t.name).filter((name) => !(name in TABLES));
    assert.deepEqual(unlisted, [], 'tables without a class here: grant the runtime role in their migration and list them');
    assert.deepEqual(
      Object.fromEntries(tables.rows.map((t) => [t.name, t.privileges])),
      Object.fromEntries(tables.rows.map((t) => [t.name, TABLES[t.name]])),
      'the runtime grants of each table are those of its class',
    );
    assert.deepEqual(Object.keys(TABLES).sort(), tables.rows.map((t) => t.name).sort(), 'every table listed here exists');

    const sequences = await sql<{ name: string; usage: boolean; select: boolean; update: boolean }>`
      SELECT c.relname AS name, has_sequence_privilege('newsroom_runtime', c.oid, 'USAGE') AS usage,
             has_sequence_privilege('newsroom_runtime', c.oid, 'SELECT') AS select,
             has_sequence_privilege('newsroom_runtime', c.oid, 'UPDATE') AS update
        FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'S' ORDER BY 1`.execute(q);
    assert.ok(sequences.rows.length > 10, 'the serial columns have sequences');
    assert.deepEqual(
      sequences.rows.map((s) => [s.name, s.usage, s.select, s.update]),
      sequences.rows.map((s) => [s.name, true, false, SEQUENCE_UPDATE.has(s.name)]),
    );

    const role = await sql<{ login: boolean; powers: boolean; owns: number }>`
      SELECT r.rolcanlogin AS login, (r.rolsuper OR r.rolcreaterole OR r.rolcreatedb OR r.rolreplication OR r.rolbypassrls) AS powers,
             ((SELECT count(*) FROM pg_class WHERE relowner = r.oid) + (SELECT count(*) FROM pg_proc WHERE proowner = r.oid)
              + (SELECT count(*) FROM pg_type WHERE typowner = r.oid) + (SELECT count(*) FROM pg_namespace WHERE nspowner = r.oid))::int AS owns
        FROM pg_roles r WHERE r.rolname = 'newsroom_runtime'`.execute(q);
    assert.deepEqual(role.rows, [{ login: false, powers: false, owns: 0 }]);
    const owner = await sql<{ tables: number }>`
      SELECT count(*)::int AS tables FROM pg_class c
       WHERE c.relnamespace = 'public'::regnamespace AND pg_has_role('newsroom_runtime', c.relowner, 'USAGE')`.execute(q);
    assert.equal(owner.rows[0]!.tables, 0, 'the runtime role is no member of the owner of any table');
    // a temporary table would stand in for the table of its name on its connection (migrations/0001_platform.sql)
    const database = await sql<{ temporary: boolean; create: boolean }>`
      SELECT has_database_privilege('newsroom_runtime', current_database(), 'TEMPORARY') AS temporary,
             has_database_privilege('newsroom_runtime', current_database(), 'CREATE') AS create`.execute(q);
    assert.deepEqual(database.rows, [{ temporary: false, create: false }], 'the runtime role may create nothing in the database');
  } finally {
    await db.drop();
  }
});

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** What the service's code does to each table, read from its statements (Kysely builders and SQL text) in src/. */
function writesInCode(): Map<string, Set<Privilege>> {
  const found = new Map<string, Set<Privilege>>();
  const add = (table: string, privilege: Privilege) => {
    if (!found.has(table)) found.set(table, new Set());
    found.get(table)!.add(privilege);
  };
  const patterns: [RegExp, Privilege][] = [
    [/\binsertInto\('(\w+)'/g, 'INSERT'],
    [/\bupdateTable\('(\w+)'/g, 'UPDATE'],
    [/\bdeleteFrom\('(\w+)'/g, 'DELETE'],
    [/\bcopyRows\(\w+, '(\w+)'/g, 'INSERT'],
    [/\binsert into (\w+)/gi, 'INSERT'],
    [/(?<!\bdo\s+)\bupdate (\w+)(?: (?!set\b)\w+)? set\b/gi, 'UPDATE'],
    [/\bdelete from (\w+)/gi, 'DELETE'],
    // upserts and row locks need UPDATE
    [/\binsertInto\('(\w+)'\)[^;]*?\bdoUpdateSet\(/g, 'UPDATE'],
    [/\binsert into (\w+)\b[^`]*?\bon conflict\b[^`]*?\bdo update\b/gi, 'UPDATE'],
    [/\bselectFrom\('(\w+)'\)[^;]*?\.forUpdate\(\)/g, 'UPDATE'],
  ];
  // the migrations' own bookkeeping runs as the owner
  for (const file of sources('src').filter((f) => !f.endsWith(join('db', 'migrate.ts')))) {
    const text = readFileSync(file, 'utf8');
    for (const [pattern, privilege] of patterns) for (const m of text.matchAll(pattern)) add(m[1]!, privilege);
    for (const m of text.matchAll(/\bselectFrom\('(\w+) as (\w+)'\)[^;]*?\.forUpdate\('(\w+)'\)/g)) if (m[2] === m[3]) add(m[1]!, 'UPDATE');
  }
  return found;
}

test('the code writes each table only in ways its class grants', () => {
  const writes = writesInCode();
  assert.ok(writes.get('audit_events')?.has('INSERT'), 'the scan sees the audit append');
  assert.ok(writes.get('payouts')?.has('UPDATE'), 'the scan sees raw SQL updates');
  assert.ok(writes.get('paid_action_usage')?.has('UPDATE'), 'the scan sees raw upserts');
  assert.ok(writes.get('webhook_deliveries')?.has('UPDATE'), 'the scan sees row locks');
  const refused: string[] = [];
  for (const [table, privileges] of writes) {
    const granted = TABLES[table];
    if (!granted) refused.push(`${table}: not a table of the schema listed here`);
    else for (const p of privileges) if (!granted.includes(p)) refused.push(`${table}: ${p}`);
  }
  assert.deepEqual(refused, [], 'statements the runtime role would be refused');
});

test(
  'with MIGRATION_DATABASE_URL the service migrates as the owner and serves as the runtime role; alone, the runtime role migrates nothing',
  { skip: needsPostgres('PGlite has a single role') },
  async () => {
    const db = await createEmptyDatabase();
    const other = await createEmptyDatabase();
    const start = (env: Record<string, string>) => buildApp(loadConfig(testEnv(env)), { logger: false });
    try {
      await assert.rejects(start({ DATABASE_URL: db.url! }), /permission denied for schema public/, 'the runtime role may create nothing');

      const app = await start({ DATABASE_URL: db.url!, MIGRATION_DATABASE_URL: db.ownerUrl! });
      try {
        const who = await sql<{ user: string }>`SELECT current_user AS user`.execute(app.ctx.database.db);
        assert.equal(who.rows[0]!.user, RUNTIME_LOGIN, 'the service serves as the runtime role');
        assert.deepEqual(await pendingMigrations(app.ctx.database), []);
        const ready = await app.inject({ method: 'GET', url: '/readyz' });
        assert.equal(ready.statusCode, 200, ready.body);
        // no temporary table to stand in for a table of the schema on the service's connection, in either spelling
        for (const statement of [
          sql`CREATE TEMP TABLE stories (id text)`,
          sql`CREATE TEMPORARY TABLE stories (id text)`,
          sql`CREATE TEMP TABLE scratch ON COMMIT DROP AS SELECT 1 AS n`,
        ])
          await assert.rejects(statement.execute(app.ctx.database.db), /permission denied to create temporary tables/);
      } finally {
        await app.close();
      }

      // migrated: the runtime role alone starts (nothing pending, nothing created)
      const again = await start({ DATABASE_URL: db.url! });
      await again.close();

      await assert.rejects(
        start({ DATABASE_URL: other.url!, MIGRATION_DATABASE_URL: db.ownerUrl! }),
        /both must name the same database/,
        'an owner URL of another database is refused',
      );
    } finally {
      await db.drop();
      await other.drop();
    }
  },
);
