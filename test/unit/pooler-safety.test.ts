import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * The service runs behind PgBouncer in transaction mode (docs/operators.md, "Behind PgBouncer"): consecutive
 * transactions of one client may run on different server connections, so nothing may rely on state that
 * outlives a transaction. npm run test:pgbouncer runs the database-heavy tests through such a pooler; this
 * check reads the service's code and migrations for the constructs that would keep session state, so that a
 * new one is caught on every run, also where no test happens to reach it.
 */
const RULES: { name: string; pattern: RegExp; use: string; allowedIn?: string }[] = [
  {
    name: 'session advisory lock',
    pattern: /pg_(try_)?advisory_(un)?lock(_shared)?\s*\(/i,
    use: 'pg_advisory_xact_lock (released at the end of the transaction)',
  },
  {
    name: 'session setting',
    // SQL in upper or lower case; prose ("Set CLAIMS_ENABLED=1") is neither
    pattern:
      /(^|[`'";])\s*(SET|set)\s+((SESSION|session)\s+)?(?!(LOCAL|local|TRANSACTION|transaction|CONSTRAINTS|constraints)\b)[a-z_.]+\s*(=|TO\b|to\b)/,
    use: 'SET LOCAL inside the transaction, or a setting of the role (ALTER ROLE … SET)',
  },
  { name: 'session set_config', pattern: /set_config\s*\([^)]*,\s*false\s*\)/i, use: 'set_config(…, true) (transaction-local)' },
  { name: 'LISTEN', pattern: /[`'";]\s*(UN)?LISTEN\s/i, use: 'Redis, or polling a table' },
  {
    name: 'temporary table that outlives its transaction',
    pattern: /CREATE\s+(GLOBAL\s+|LOCAL\s+)?TEMP(ORARY)?\s+TABLE(?![^;`]*ON\s+COMMIT\s+DROP)/i,
    use: 'a CTE: the runtime role may create no temporary table at all (migrations/0001_platform.sql)',
  },
  { name: 'SQL-level prepared statement', pattern: /[`'";]\s*PREPARE\s/i, use: 'a parameterized query (unnamed statement)' },
  {
    name: 'named protocol statement',
    pattern: /\.query\(\s*\{[^}]*\bname\s*[:,}]/s,
    use: 'a query without `name` (node-postgres sends it unnamed), or reusableQuery',
    // the one place that names statements: those reusableQuery marks, unless DATABASE_PREPARED_STATEMENTS is off,
    // as it is behind a pooler that does not track them (test/platform/reusable-query.test.ts checks both ways)
    allowedIn: 'src/platform/db/database.ts',
  },
  { name: 'cursor held past its transaction', pattern: /\bWITH\s+HOLD\b/i, use: 'keyset pagination' },
];

function violations(text: string, file?: string): string[] {
  return RULES.filter((rule) => rule.pattern.test(text) && (file === undefined || rule.allowedIn !== file)).map(
    (rule) => `${rule.name} (use ${rule.use})`,
  );
}

/**
 * The statements of a migration: split on semicolons so that an UPDATE's `SET` clause on its own line does not
 * count as a statement; dollar-quoted function bodies are left out (what they SET is local to the function
 * when declared with SET, and they are checked by the tier).
 */
function migrationStatements(text: string): string[] {
  return text
    .replace(/--.*$/gm, '')
    .replace(/\$(\w*)\$[\s\S]*?\$\1\$/g, "''")
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

const repo = fileURLToPath(new URL('../..', import.meta.url));

describe('nothing the service runs keeps state past a transaction (PgBouncer transaction mode)', () => {
  test('each rule bites on what it forbids and lets the transaction-scoped form through', () => {
    const bad = [
      'await sql`SELECT pg_advisory_lock(${KEY})`.execute(db);',
      "await client.query('SELECT pg_try_advisory_lock($1)', [k]);",
      "await sql`SET statement_timeout = '5s'`.execute(db);",
      'await sql`set search_path to app`.execute(db);',
      'await sql`SET SESSION lock_timeout TO 1000`.execute(db);',
      "await sql`SELECT set_config('app.actor', ${id}, false)`.execute(tx);",
      "await client.query('LISTEN outbox');",
      'await sql`CREATE TEMP TABLE t (id int)`.execute(tx);',
      "await client.query('PREPARE q AS SELECT 1');",
      "await client.query({ name: 'by-id', text: 'SELECT 1 WHERE $1', values: [1] });",
      'await client.query({ name, text, values });',
      'await sql`DECLARE c CURSOR WITH HOLD FOR SELECT 1`.execute(tx);',
    ];
    for (const code of bad) assert.notDeepEqual(violations(code), [], `not caught: ${code}`);
    const good = [
      'await sql`SELECT pg_advisory_xact_lock(${KEY})`.execute(tx);',
      "await sql`SET LOCAL statement_timeout = '5s'`.execute(tx);",
      "await sql`SELECT set_config('app.actor', ${id}, true)`.execute(tx);",
      'await sql`update payouts set status = ${s} where id = ${id}`.execute(tx);',
      'await sql`UPDATE stories\n   SET title = ${t}`.execute(tx);',
      'await sql`CREATE TEMP TABLE t (id int) ON COMMIT DROP`.execute(tx);',
      "await app.listen({ port: 0, host: '127.0.0.1' });",
      'await client.query({ text: "SELECT 1", values: [] });',
      'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ',
      "'Set CLAIMS_ENABLED=1, CHAIN_RPC_URL and CLAIM_DISTRIBUTOR_ADDRESS'",
    ];
    for (const code of good) assert.deepEqual(violations(code), [], `wrongly caught: ${code}`);
    assert.deepEqual(migrationStatements('UPDATE t\nSET a = 1;\nSET search_path = x;\n'), ['UPDATE t\nSET a = 1', 'SET search_path = x']);
    assert.notDeepEqual(violations('SET search_path = x'), []);
  });

  test('src/ and migrations/ use none of it', () => {
    const found: string[] = [];
    for (const file of walk(join(repo, 'src'))) {
      const path = relative(repo, file);
      for (const v of violations(readFileSync(file, 'utf8'), path)) found.push(`${path}: ${v}`);
    }
    const migrations = join(repo, 'migrations');
    for (const name of readdirSync(migrations).filter((n) => n.endsWith('.sql'))) {
      for (const statement of migrationStatements(readFileSync(join(migrations, name), 'utf8')))
        for (const v of violations(statement)) found.push(`migrations/${name}: ${v}: ${statement.slice(0, 80)}`);
    }
    assert.deepEqual(found, []);
  });
});
