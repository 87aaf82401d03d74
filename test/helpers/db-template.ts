import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/platform/db/database.js';
import { listMigrations, migrationsDir, runMigrations } from '../../src/platform/db/migrate.js';
import { startPgbouncer, TRACKING_POOLER, type Pgbouncer } from './pgbouncer.js';
import type { DB } from '../../src/tables.js';

/**
 * Migrated templates, so that a test database is a copy instead of a fresh initdb plus migrations.
 *
 * Each template is named by a hash of the migrations (names and contents) and of the PGlite version, so a
 * changed migration makes a new template and concurrently running test files agree on the name:
 *  - PGlite: a data directory migrated once and copied per test database (under /dev/shm when it exists);
 *    a finished template is moved into place with one rename, so a reader never sees half a template.
 *  - PostgreSQL: a database `svc_tpl_<hash>` migrated once under an advisory lock, closed to connections, and
 *    cloned per test with `CREATE DATABASE … TEMPLATE`. The server's user of TEST_DATABASE_URL migrates and
 *    clones (the owner); the service under test connects as RUNTIME_LOGIN, a login member of the runtime role
 *    the migrations create (docs/operators.md, "Database roles").
 * Templates of other migrations unused for an hour, copies left by dead processes and test databases older
 * than two hours are removed when a template is first needed.
 */

const HOUR = 3_600_000;

let hashPromise: Promise<string> | undefined;

/** 16 hex characters naming the current migrations (and the PGlite build that lays out the data directory). */
export function migrationsHash(): Promise<string> {
  hashPromise ??= (async () => {
    const dir = migrationsDir();
    const hash = createHash('sha256');
    const pgliteVersion = (
      JSON.parse(readFileSync(join(dir, '..', 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string }
    ).version;
    hash.update(`pglite ${pgliteVersion}\n${PGLITE_TEST_SETTINGS}\n`);
    for (const file of await listMigrations(dir))
      hash
        .update(`${file}\n`)
        .update(readFileSync(join(dir, file)))
        .update('\n');
    return hash.digest('hex').slice(0, 16);
  })();
  return hashPromise;
}

// ---------------------------------------------------------------------------------------------------------
// PGlite

/**
 * Server settings of the test template (appended to its postgresql.auto.conf, so every copy starts with them).
 * PGlite's defaults (128 MB of shared buffers, 100 connections) cost every new PGlite about a second of CPU at
 * start, zeroing shared memory it never uses for a test's few rows; with these a copy opens in about 0.25 s
 * instead of 1.0-1.2 s (measured on the 2-core machine).
 */
const PGLITE_TEST_SETTINGS = 'shared_buffers = 16MB\nmax_connections = 10\n';

/** Where PGlite templates and copies live: memory-backed when the system has /dev/shm. */
export const PGLITE_ROOT = join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'newsroom-tests');

let pgliteTemplate: Promise<string> | undefined;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeStalePglite(current: string): void {
  for (const name of readdirSync(PGLITE_ROOT)) {
    const path = join(PGLITE_ROOT, name);
    let stale = false;
    try {
      const age = Date.now() - statSync(path).mtimeMs;
      if (name.startsWith('pglite-')) stale = name !== current && age > HOUR;
      else if (name.startsWith('build-')) stale = age > 10 * 60_000;
      else if (name.startsWith('demo-')) stale = age > HOUR;
      else if (name.startsWith('db-')) stale = !alive(Number(name.split('-')[1]));
    } catch {
      continue;
    }
    if (stale) rmSync(path, { recursive: true, force: true });
  }
}

async function buildPgliteTemplate(): Promise<string> {
  const hash = await migrationsHash();
  const name = `pglite-${hash}`;
  const dir = join(PGLITE_ROOT, name);
  mkdirSync(PGLITE_ROOT, { recursive: true });
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    const build = mkdtempSync(join(PGLITE_ROOT, `build-${hash}-`));
    const database = await openDatabase<DB>({ databaseUrl: undefined, dataDir: build, poolMax: 1 });
    try {
      await runMigrations(database);
    } finally {
      await database.close();
    }
    appendFileSync(join(build, 'postgresql.auto.conf'), PGLITE_TEST_SETTINGS);
    try {
      renameSync(build, dir);
    } catch (err) {
      // another test file finished the same template first: theirs is as good as ours
      rmSync(build, { recursive: true, force: true });
      if (!existsSync(join(dir, 'PG_VERSION'))) throw err;
    }
  }
  const now = new Date();
  utimesSync(dir, now, now); // last use: templates of other migrations are removed after an hour unused
  removeStalePglite(name);
  return dir;
}

/** A copy of the migrated template's data directory, and its removal. */
export async function clonePgliteDir(): Promise<{ dir: string; remove(): void }> {
  pgliteTemplate ??= buildPgliteTemplate();
  try {
    return copyPgliteDir(await pgliteTemplate);
  } catch {
    // the template went away under us (removed as stale by a run with other migrations): make it again
    pgliteTemplate = buildPgliteTemplate();
    return copyPgliteDir(await pgliteTemplate);
  }
}

/** A copy of the data directory `template`, named by this process, and its removal. */
function copyPgliteDir(template: string): { dir: string; remove(): void } {
  const dir = join(PGLITE_ROOT, `db-${process.pid}-${randomBytes(6).toString('hex')}`);
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    cpSync(template, dir, { recursive: true });
  } catch (err) {
    remove();
    throw err;
  }
  return { dir, remove };
}

/**
 * PGlite on the copy `dir`, used once: Database.close() (Kysely's destroy) closes PGlite only once the driver was
 * used, and an open PGlite holds the test process for ten seconds after its last test.
 */
async function openPglite(dir: string): Promise<Database<DB>> {
  const database = await openDatabase<DB>({ databaseUrl: undefined, dataDir: dir, poolMax: 1 });
  await sql`SELECT 1`.execute(database.db);
  return database;
}

/**
 * The demo newsroom's template of this test run: a copy of the migrated template on which `seed` ran once, made by
 * the first process of the run that asks (the others wait for it), and named by the run (TEST_RUN_ID), so that
 * the demo's times (its stories were written hours before the seed) stay as near to the tests' now as a fresh seed.
 */
async function buildDemoTemplate(seed: (database: Database<DB>) => Promise<void>): Promise<string> {
  const run = process.env.TEST_RUN_ID ?? String(process.pid);
  const dir = join(PGLITE_ROOT, `demo-${run}`);
  const lock = join(PGLITE_ROOT, `demo-${run}.lock`);
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (existsSync(join(dir, 'PG_VERSION'))) return dir;
    let mine = false;
    try {
      closeSync(openSync(lock, 'wx'));
      mine = true;
    } catch {
      // another process of the run is seeding it
    }
    if (mine) break;
    if (Date.now() > deadline) throw new Error(`the demo template ${dir} was not made in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  try {
    const { dir: build } = await clonePgliteDir();
    const database = await openDatabase<DB>({ databaseUrl: undefined, dataDir: build, poolMax: 1 });
    try {
      await seed(database);
    } finally {
      await database.close();
    }
    renameSync(build, dir);
    return dir;
  } finally {
    rmSync(lock, { force: true });
  }
}

let demoTemplate: Promise<string> | undefined;

/**
 * A new PGlite database holding the demo newsroom (`seed` makes it once per run: buildDemoTemplate), dropped as
 * clonePglite's are: emptied, it joins the process's reusable migrated databases (once the process has described
 * a fresh copy to empty it back to; before that, it is removed).
 */
export async function clonePgliteDemo(
  seed: (database: Database<DB>) => Promise<void>,
): Promise<{ database: Database<DB>; drop(): Promise<void> }> {
  demoTemplate ??= buildDemoTemplate(seed);
  const { dir, remove } = copyPgliteDir(await demoTemplate);
  return pooledDrop({ database: await openPglite(dir), remove });
}

interface PooledPglite {
  database: Database<DB>;
  remove(): void;
}

/** PGlite databases a test file dropped, emptied and ready for its next createTestDatabase(). */
const idle: PooledPglite[] = [];

/**
 * Everything of a database that emptying its tables does not restore: tables and their columns, defaults,
 * constraints, indexes, triggers and whether they are enabled, functions, enum labels, and the recorded
 * migrations. A test that altered any of these leaves a database that is not reused.
 */
const SCHEMA_FINGERPRINT = `
  SELECT md5(coalesce(string_agg(x, E'\\n' ORDER BY x), '')) AS fingerprint FROM (
    SELECT format('column %s %s %s %s %s %s', c.relname, c.relkind, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
                  pg_get_expr(d.adbin, d.adrelid)) AS x
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
    UNION ALL SELECT format('constraint %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid))
      FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL SELECT format('index %s', pg_get_indexdef(indexrelid))
      FROM pg_index WHERE indrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace)
    UNION ALL SELECT format('trigger %s %s %s', tgname, tgenabled, pg_get_triggerdef(oid)) FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL SELECT format('function %s %s', proname, md5(prosrc)) FROM pg_proc WHERE pronamespace = 'public'::regnamespace
    UNION ALL SELECT format('enum %s %s %s', enumtypid::regtype, enumlabel, enumsortorder) FROM pg_enum
    UNION ALL SELECT format('migration %s', name) FROM schema_migrations
  ) parts`;

/**
 * What a fresh copy of the template holds besides its schema: the rows migrations seeded (the launch rewards
 * policy), as json per table, and every sequence's position.
 */
interface Pristine {
  tables: string[];
  seeded: { table: string; rows: string }[];
  sequences: { name: string; lastValue: string | null }[];
  fingerprint: string;
}

let pristine: Promise<Pristine> | undefined;

async function describeFresh(database: Database<DB>): Promise<Pristine> {
  const names = (
    await sql<{
      name: string;
    }>`SELECT format('%I', tablename) AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations' ORDER BY 1`.execute(
      database.db,
    )
  ).rows.map((r) => r.name);
  const seeded: Pristine['seeded'] = [];
  for (const table of names) {
    const rows = (await sql.raw<{ rows: string | null }>(`SELECT json_agg(t)::text AS rows FROM ${table} t`).execute(database.db)).rows[0]!
      .rows;
    if (rows) seeded.push({ table, rows });
  }
  const sequences = (
    await sql<{
      name: string;
      lastValue: string | null;
    }>`SELECT format('%I', sequencename) AS name, last_value::text AS "lastValue" FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1`.execute(
      database.db,
    )
  ).rows;
  return { tables: names, seeded, sequences, fingerprint: await fingerprint(database) };
}

async function fingerprint(database: Database<DB>): Promise<string> {
  return (await sql.raw<{ fingerprint: string }>(SCHEMA_FINGERPRINT).execute(database.db)).rows[0]!.fingerprint;
}

const quote = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/**
 * Empties a dropped database so that the same test process can use it again as a new one, and says whether it
 * is as good as a fresh copy: every table but schema_migrations emptied (with triggers off, so that an
 * append-only table's refusal of DELETE does not apply; DELETE, because TRUNCATE makes new files for every
 * table and index, 160 ms against 20 ms on PGlite), the rows migrations seeded put back, every sequence
 * where the template left it, session state discarded, and the schema as the template left it. A new PGlite
 * costs 0.2-0.3 s; this costs milliseconds.
 */
async function reset(database: Database<DB>, described: Promise<Pristine> | undefined = pristine): Promise<boolean> {
  const fresh = await described;
  if (!fresh) return false;
  const restore = [
    ...fresh.seeded.map(
      ({ table, rows }) =>
        `INSERT INTO ${table} OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(NULL::${table}, ${quote(rows)})`,
    ),
    ...fresh.sequences.map(({ name, lastValue }) =>
      lastValue === null ? `ALTER SEQUENCE ${name} RESTART` : `SELECT setval(${quote(name)}, ${lastValue}, true)`,
    ),
  ];
  await database.withSession(async (session) => {
    await session.exec('ROLLBACK');
    await session.exec(
      ['SET session_replication_role = replica', ...fresh.tables.map((table) => `DELETE FROM ${table}`), ...restore].join('; '),
    );
    await session.exec('DISCARD ALL');
  });
  return (await fingerprint(database)) === fresh.fingerprint;
}

/** A new, migrated PGlite database: an emptied one this process dropped before, or a copy of the template. */
export async function clonePglite(): Promise<{ database: Database<DB>; drop(): Promise<void> }> {
  let pooled = idle.pop();
  if (!pooled) {
    const { dir, remove } = await clonePgliteDir();
    const database = await openPglite(dir);
    pristine ??= describeFresh(database);
    await pristine;
    pooled = { database, remove };
  }
  return pooledDrop(pooled);
}

/** `pooled` with a drop() that empties it into the process's reusable databases (or removes it when it cannot). */
function pooledDrop(pooled: PooledPglite): { database: Database<DB>; drop(): Promise<void> } {
  const { database } = pooled;
  let dropped = false;
  return {
    database,
    async drop() {
      if (dropped) return;
      dropped = true;
      if (await reset(database).catch(() => false)) {
        idle.push(pooled);
      } else {
        await database.close().catch(() => undefined);
        pooled.remove();
      }
    },
  };
}

/** Closes the databases kept for reuse (at the end of each test process: test/helpers/app.ts). */
export async function closeIdlePglite(): Promise<void> {
  for (const { database, remove } of idle.splice(0)) {
    await database.close().catch(() => undefined);
    remove();
  }
}

// ---------------------------------------------------------------------------------------------------------
// PostgreSQL

const TEMPLATE_LOCK = 7_346_221_777;

/**
 * The login the tests' services connect as: a member of newsroom_runtime (migrations/0001_platform.sql),
 * as an operator's service login is. Roles belong to the whole server, so it is created once, under the
 * template lock, and never dropped (concurrent runs share it); its password is its name, for servers that ask.
 */
export const RUNTIME_LOGIN = 'newsroom_test_runtime';

async function ensureRuntimeLogin(admin: pg.Client): Promise<void> {
  const exists = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [RUNTIME_LOGIN]);
  if (exists.rowCount === 0) await admin.query(`CREATE ROLE ${RUNTIME_LOGIN} LOGIN PASSWORD '${RUNTIME_LOGIN}'`);
  const member = await admin.query(
    `SELECT 1 FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.roleid JOIN pg_roles u ON u.oid = m.member
    WHERE r.rolname = 'newsroom_runtime' AND u.rolname = $1`,
    [RUNTIME_LOGIN],
  );
  if (member.rowCount === 0) await admin.query(`GRANT newsroom_runtime TO ${RUNTIME_LOGIN}`);
}

/** `url` with the runtime login as its user. */
function asRuntime(url: string): string {
  const parsed = new URL(url);
  parsed.username = RUNTIME_LOGIN;
  parsed.password = RUNTIME_LOGIN;
  return parsed.toString();
}

/**
 * Under TEST_PGBOUNCER=1 (npm run test:pgbouncer) the services' runtime connections go through PgBouncer in
 * transaction mode, while the owner's (migrations, cloning, forged rows) stay direct, as an operator's migrator
 * does (docs/operators.md, "Behind PgBouncer"). The pooler is the run's (TEST_PGBOUNCER_URL, started by
 * scripts/test-pgbouncer.ts), or one this process starts on first use and stops at its end.
 */
export const usingPgbouncer = process.env.TEST_PGBOUNCER === '1';

/**
 * Under TEST_PGBOUNCER_NAMED=1 as well (the tier's second pass), the pooler carries named statements (PgBouncer
 * 1.21 or later with max_prepared_statements: TRACKING_POOLER), and the services keep theirs on.
 */
export const poolerCarriesNamed = usingPgbouncer && process.env.TEST_PGBOUNCER_NAMED === '1';

/**
 * The settings a service needs behind the test pooler: PgBouncer 1.18 in transaction mode does not track named
 * statements (docs/operators.md, "Behind PgBouncer"). Spread into the environment of every service a test starts.
 */
export const poolerEnv: Record<string, string> = usingPgbouncer && !poolerCarriesNamed ? { DATABASE_PREPARED_STATEMENTS: '0' } : {};

let pooler: Promise<Pick<Pgbouncer, 'through'> & Partial<Pick<Pgbouncer, 'stop'>>> | undefined;

/** Who may log in through the test pooler: the runtime login, and the owner (TEST_DATABASE_URL's user). */
export function pgbouncerUsers(base: string): { name: string; password: string }[] {
  const owner = new URL(base);
  return [
    { name: RUNTIME_LOGIN, password: RUNTIME_LOGIN },
    { name: decodeURIComponent(owner.username), password: decodeURIComponent(owner.password) },
  ];
}

/** `url` (of the test server) through the test pooler under TEST_PGBOUNCER=1, else `url` itself. */
export async function throughPgbouncer(url: string): Promise<string> {
  if (!usingPgbouncer) return url;
  pooler ??= (async () => {
    const shared = process.env.TEST_PGBOUNCER_URL;
    const base = process.env.TEST_DATABASE_URL ?? url;
    if (!shared) return startPgbouncer({ serverUrl: base, users: pgbouncerUsers(base), ...(poolerCarriesNamed ? TRACKING_POOLER : {}) });
    const at = new URL(shared);
    return {
      through(target: string) {
        const parsed = new URL(target);
        parsed.host = at.host;
        return parsed.toString();
      },
    };
  })();
  return (await pooler).through(url);
}

/** Stops the pooler this process started (at the end of each test process: test/helpers/app.ts). */
export async function stopPgbouncer(): Promise<void> {
  const started = await pooler?.catch(() => undefined);
  pooler = undefined;
  await started?.stop?.();
}

const TEST_DB = /^svc_test_([0-9a-z]+)_[0-9a-f]+$/;

let postgresTemplate: Promise<string> | undefined;

async function withAdmin<T>(base: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

async function buildPostgresTemplate(base: string): Promise<string> {
  const name = `svc_tpl_${await migrationsHash()}`;
  await withAdmin(base, async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount === 0) {
        const build = `svc_tplb_${randomBytes(6).toString('hex')}`;
        await admin.query(`CREATE DATABASE ${build}`);
        const database = await openDatabase<DB>({ databaseUrl: databaseUrl(base, build), dataDir: '', poolMax: 1 });
        try {
          await runMigrations(database);
        } finally {
          await database.close();
        }
        await admin.query(`ALTER DATABASE ${build} RENAME TO ${name}`);
        await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      }
      await admin.query(`COMMENT ON DATABASE ${name} IS '${Date.now()}'`);
      await ensureRuntimeLogin(admin);
      await removeStalePostgres(admin, name);
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
  return name;
}

/**
 * Drops templates of other migrations unused for an hour, half-built ones, and test databases (also those of
 * earlier naming schemes) created over two hours ago. The creation time is that of the database's PG_VERSION
 * file (pg_stat_file needs a superuser, as the test server has); failing that, the time in the name.
 */
async function removeStalePostgres(admin: pg.Client, current: string): Promise<void> {
  const list = (created: string) =>
    admin.query<{ datname: string; comment: string | null; created: number | null }>(
      `SELECT datname, shobj_description(oid, 'pg_database') AS comment, ${created} AS created FROM pg_database WHERE datname LIKE 'svc\\_t%'`,
    );
  const rows = await list(`extract(epoch FROM (pg_stat_file('base/' || oid || '/PG_VERSION')).modification) * 1000`).catch(() =>
    list('NULL::float8'),
  );
  for (const { datname, comment, created } of rows.rows) {
    let stale = false;
    if (datname.startsWith('svc_tpl_')) stale = datname !== current && Date.now() - Number(comment ?? 0) > HOUR;
    else if (datname.startsWith('svc_tplb_'))
      stale = true; // only ever exists under the lock we hold
    else if (datname.startsWith('svc_test_')) {
      const named = TEST_DB.exec(datname);
      const at = created !== null ? Number(created) : named ? parseInt(named[1]!, 36) * 1000 : Date.now();
      stale = Date.now() - at > 2 * HOUR;
    }
    if (!stale) continue;
    // a template in use right now refuses the drop; it is tried again next time
    const name = admin.escapeIdentifier(datname);
    await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE false`).catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${name}${datname.startsWith('svc_test_') ? ' WITH (FORCE)' : ''}`).catch(() => undefined);
  }
}

/** A database on the test server: the service's connection (runtime role) and the owner's, and its drop. */
export interface PostgresTestDatabase {
  /** The runtime login's URL (what the service under test connects with). */
  url: string;
  database: Database<DB>;
  /** The owner's URL (TEST_DATABASE_URL's user): migrations, and tests that change the schema or forge rows. */
  ownerUrl: string;
  owner: Database<DB>;
  drop(): Promise<void>;
}

/** Databases on the test server this process dropped, emptied and ready for its next clonePostgres(). */
const idlePostgres: string[] = [];

/** What a fresh clone of the PostgreSQL template holds (described once per process, on its first clone). */
let pristinePostgres: Promise<Pristine> | undefined;

/**
 * A new database on the test server cloned from the migrated template, and its drop: an emptied one this process
 * dropped before, or a new clone. A drop empties the database as a PGlite one is (reset), after ending the sessions
 * still open on it, and keeps it when its schema is the template's: CREATE DATABASE from the template and its DROP
 * cost the server about a second each on the 2-core machine, an emptying some 50 ms.
 */
export async function clonePostgres(base: string): Promise<PostgresTestDatabase> {
  postgresTemplate ??= buildPostgresTemplate(base);
  const reused = idlePostgres.pop();
  if (reused) return openPostgres(base, reused, true);
  const name = newDatabaseName();
  await withAdmin(base, async (admin) => {
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await postgresTemplate!}`);
    } catch (err) {
      if ((err as { code?: string }).code !== '3D000') throw err; // template gone (removed as stale): make it again
      postgresTemplate = buildPostgresTemplate(base);
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await postgresTemplate}`);
    }
    // the template's database-level grants are not copied with it: the runtime role's services run here as on a
    // migrated database, unable to create temporary tables (migrations/0001_platform.sql)
    await admin.query(`REVOKE TEMPORARY ON DATABASE ${name} FROM PUBLIC, newsroom_runtime`);
  });
  const created = await openPostgres(base, name, true);
  pristinePostgres ??= describeFresh(created.owner);
  await pristinePostgres;
  return created;
}

/**
 * A new, empty database on the test server (no migration applied: for tests of the migrator, which run it with
 * `owner`), and its drop.
 */
export async function emptyPostgres(base: string): Promise<PostgresTestDatabase> {
  postgresTemplate ??= buildPostgresTemplate(base); // it makes the runtime login, under its lock
  await postgresTemplate;
  const name = newDatabaseName();
  await withAdmin(base, (admin) => admin.query(`CREATE DATABASE ${name}`));
  return openPostgres(base, name, false);
}

const newDatabaseName = () => `svc_test_${Math.floor(Date.now() / 1000).toString(36)}_${randomBytes(4).toString('hex')}`;

/** Empties a test database for reuse (see clonePostgres); false when it cannot be as good as a fresh clone. */
async function resetPostgres(owner: Database<DB>, name: string): Promise<boolean> {
  if (!pristinePostgres) return false;
  // sessions a test left open (a service process, a pooler's server connections) would hold locks and state
  await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name} AND pid <> pg_backend_pid()`.execute(owner.db);
  return reset(owner, pristinePostgres);
}

async function openPostgres(base: string, name: string, reusable: boolean): Promise<PostgresTestDatabase> {
  const ownerUrl = databaseUrl(base, name);
  const url = await throughPgbouncer(asRuntime(ownerUrl));
  // PgBouncer 1.18 in transaction mode does not track named statements: the services run with them off there.
  // A connection may take seconds to open while the suite's processes load both cores (a loaded CI run once
  // answered 503 where a test asked about a conflict, likely the 5 s default running out); no test here is about
  // connect time, so 20 s, for the owner's connections as well (one once took over 5 s in a loaded run).
  const connectTimeoutMs = 20_000;
  const database = await openDatabase<DB>({
    databaseUrl: url,
    dataDir: '',
    poolMax: 10,
    preparedStatements: !usingPgbouncer,
    connectTimeoutMs,
  });
  const owner = await openDatabase<DB>({ databaseUrl: ownerUrl, dataDir: '', poolMax: 2, connectTimeoutMs });
  return {
    url,
    database,
    ownerUrl,
    owner,
    async drop() {
      await database.close();
      const kept = reusable && (await resetPostgres(owner, name).catch(() => false));
      await owner.close();
      if (kept) {
        idlePostgres.push(name);
        return;
      }
      // DROP DATABASE waits for a checkpoint (about a second): it runs in the background while the tests go on,
      // and the end of the file waits for every drop (settleDrops, test/helpers/app.ts)
      const dropping = withAdmin(base, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
        .then(() => undefined)
        .catch((err: Error) => console.warn(`could not drop test database ${name}: ${err.message}`))
        .finally(() => pendingDrops.delete(dropping));
      pendingDrops.add(dropping);
    },
  };
}

const pendingDrops = new Set<Promise<void>>();

/** Drops the databases kept for reuse, and waits for the test databases being dropped in the background. */
export async function settleDrops(): Promise<void> {
  const base = process.env.TEST_DATABASE_URL;
  const kept = idlePostgres.splice(0);
  if (base && kept.length)
    await withAdmin(base, async (admin) => {
      for (const name of kept) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    });
  while (pendingDrops.size) await Promise.all([...pendingDrops]);
}

/** Builds the template the current environment uses (scripts/prepare-test-db.ts, before a run). */
export async function prepareTemplate(): Promise<void> {
  const base = process.env.TEST_DATABASE_URL;
  if (base) {
    postgresTemplate ??= buildPostgresTemplate(base);
    await postgresTemplate;
  } else {
    pgliteTemplate ??= buildPgliteTemplate();
    await pgliteTemplate;
  }
}
