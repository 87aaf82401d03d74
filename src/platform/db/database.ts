import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, sql, type PostgresPool, type PostgresPoolClient, type Transaction } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { COPY_TIMEOUT_MS, copyIntoClient, copyIntoPglite, copySource } from './bulk/copy-in.js';
import { preparedName } from './prepared-statements.js';
import type { Config } from '../../config.js';

/** PostgreSQL's unique_violation (23505), from node-postgres or PGlite. */
export const isUniqueViolation = (err: unknown) => typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';

/**
 * A database handle typed to a set of tables (table name → row type). A context's repositories take the handle of
 * its own tables (`Db<IdentityTables>`), so a query on another context's table does not compile. There is no
 * default: platform knows no context's tables, and the whole database (src/tables.ts) is the composition root's
 * (docs/architecture.md, "Who owns which tables").
 */
export type Db<T> = Kysely<T>;
/** An open transaction on the same tables: row-locking repository functions take this. */
export type Tx<T> = Transaction<T>;
/** Either the database or an open transaction: repositories take this. */
export type Queryable<T> = Kysely<T>;

/**
 * The same handle (the database or an open transaction: one connection pool, one transaction) typed to the tables
 * `T`. A wider handle is assignable to a narrower one already; this is the one cast the type system needs when the
 * composition root hands a context's transaction on to another context's port, typed to that context's tables.
 */
export function tablesOf<T, From>(handle: Transaction<From>): Transaction<T>;
export function tablesOf<T, From>(handle: Kysely<From>): Kysely<T>;
export function tablesOf<T, From>(handle: Kysely<From>): Kysely<T> {
  return handle as unknown as Kysely<T>;
}

/**
 * One connection with exclusive use: multi-statement scripts and plain queries (migrations). Through a pooler
 * in transaction mode consecutive calls outside a transaction may reach
 * different server sessions: only what runs between one BEGIN and its COMMIT shares a session.
 */
export interface Session {
  exec(script: string): Promise<void>;
  query<T>(text: string): Promise<T[]>;
}

export interface Database<T> {
  db: Db<T>;
  driver: 'postgres' | 'pglite';
  /**
   * How many connections it gives at once: the pool's size, 1 for the embedded database (one session, which runs
   * one statement at a time). A read split into statements that run side by side needs more than one.
   */
  connections: number;
  /** Runs `fn` with exclusive use of one session that can execute multi-statement scripts. */
  withSession<T>(fn: (session: Session) => Promise<T>): Promise<T>;
  /** `select 1` with a deadline; rejects when the database does not answer in time. */
  ping(timeoutMs: number): Promise<void>;
  poolStats(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

// int8 is a decimal string on both drivers (node-postgres' default; PGlite is told so below), never a JS
// number, which would round past 2^53. Counts are cast to int in SQL; sequences and money stay exact.
const INT8_OID = 20;
const pgTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID ? (value: string) => value : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  dataDir: string;
  poolMax: number;
  /** node-postgres' limits (defaults: connect 5 s, statement 30 s); a read replica gets shorter ones. */
  connectTimeoutMs?: number;
  queryTimeoutMs?: number;
  /** The limit of a copyRows COPY (bulk/copy-in.ts), longer than a statement's: default COPY_TIMEOUT_MS. */
  copyTimeoutMs?: number;
  /** PostgreSQL's application_name of the pool's sessions (pg_stat_activity shows it). */
  applicationName?: string;
  /**
   * Send the statements marked as prepared (prepared-statements.ts) by name, so that each connection plans them
   * once (default true). Off behind a transaction pooler that does not track named statements.
   */
  preparedStatements?: boolean;
}

function withDeadline<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * The runtime database a configuration names (DATABASE_URL, else the embedded database in DATA_DIR), with its
 * settings: what the service and the command-line tools open. `poolMax` defaults to DATABASE_POOL_MAX.
 */
export function openRuntimeDatabase<T>(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'databasePoolMax' | 'databasePreparedStatements'>,
  poolMax = config.databasePoolMax,
): Promise<Database<T>> {
  return openDatabase<T>({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolMax,
    preparedStatements: config.databasePreparedStatements,
  });
}

/**
 * Opens PostgreSQL through node-postgres when a URL is given, else the embedded PGlite. `T` is the tables the caller
 * names for its handle, as with `new Kysely<T>`: the whole database (src/tables.ts) or platform's.
 */
export async function openDatabase<T>(options: DatabaseOptions): Promise<Database<T>> {
  if (options.databaseUrl) return openPostgres<T>(options.databaseUrl, options);
  return openPglite<T>(options.dataDir);
}

function openPostgres<T>(url: string, options: DatabaseOptions): Database<T> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolMax,
    types: pgTypes,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    // a statement that hangs (server gone mid-query) must not hold a request forever
    query_timeout: options.queryTimeoutMs ?? 30_000,
    ...(options.applicationName ? { application_name: options.applicationName } : {}),
  });
  // An idle client losing its server emits 'error' on the pool; without a listener that kills the process.
  pool.on('error', () => undefined);
  // A checked-out client has no pool listener: its socket dying mid-query would emit an unhandled 'error'
  // and crash the process. The query itself still rejects, and the pool drops the broken client on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<T>({
    dialect: new PostgresDialect({
      pool: driverPool(pool, { copyTimeoutMs: options.copyTimeoutMs ?? COPY_TIMEOUT_MS, prepared: options.preparedStatements ?? true }),
    }),
  });
  return {
    db,
    driver: 'postgres',
    connections: options.poolMax,
    async withSession(fn) {
      // Its own connection, outside the pool and without the pool's query timeout: a session runs
      // administrative work (migrations) that may rewrite a large table for minutes.
      const client = new pg.Client({ connectionString: url, types: pgTypes, connectionTimeoutMillis: 5_000 });
      client.on('error', () => undefined);
      await client.connect();
      try {
        return await fn({
          exec: async (script) => {
            await client.query(script);
          },
          query: async <T>(text: string) => (await client.query(text)).rows as T[],
        });
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    ping: (timeoutMs) =>
      withDeadline(
        sql`select 1`.execute(db).then(() => undefined),
        timeoutMs,
        'database ping',
      ),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => db.destroy(),
  };
}

/**
 * The pool Kysely gets: node-postgres' own, with copyRows queries (bulk/copy-in.ts) sent as COPY streams and, when
 * `prepared`, the statements marked as prepared sent by their name.
 */
function driverPool(pool: pg.Pool, { copyTimeoutMs, prepared }: { copyTimeoutMs: number; prepared: boolean }): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      const query = (sqlOrCursor: string | pg.Submittable, parameters: readonly unknown[] = []) => {
        if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor); // a cursor (Kysely's stream())
        const name = prepared ? preparedName(sqlOrCursor) : undefined;
        if (name !== undefined && !staleOn.get(client)?.has(name)) return named(client, name, sqlOrCursor, [...parameters]);
        const source = copySource(sqlOrCursor, parameters);
        return source ? copyIntoClient(client, sqlOrCursor, source, copyTimeoutMs) : client.query(sqlOrCursor, [...parameters]);
      };
      return { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
    },
    end: () => pool.end(),
  };
}

/** The named statements each connection can no longer run (stalePlan): they go unnamed there. */
const staleOn = new WeakMap<pg.PoolClient, Set<string>>();

/**
 * PostgreSQL refuses a prepared statement whose result columns changed type since it was prepared (a migration
 * while the instance runs): that connection runs the statement unnamed from then on. Outside a transaction the
 * query is answered at once; in one, the transaction has failed and the caller gets PostgreSQL's error.
 */
const stalePlan = (err: unknown) =>
  typeof err === 'object' &&
  err !== null &&
  (err as { code?: unknown }).code === '0A000' &&
  /cached plan/.test(String((err as Error).message));

async function named(client: pg.PoolClient, name: string, text: string, values: unknown[]) {
  try {
    return await client.query({ name, text, values });
  } catch (err) {
    if (!stalePlan(err)) throw err;
    const stale = staleOn.get(client) ?? new Set<string>();
    staleOn.set(client, stale.add(name));
    // 25P02: inside a transaction, which the refusal failed: the caller gets the refusal itself
    return client.query(text, values).catch((retry: unknown) => {
      throw (retry as { code?: unknown }).code === '25P02' ? err : retry;
    });
  }
}

/** What the PGlite dialect uses of PGlite (query and close), with copyRows queries read from a blob. */
function copyAwarePglite(client: PGlite): PGlite {
  const facade = {
    query: (text: string, parameters: unknown[] = []) => {
      const source = copySource(text, parameters);
      return source ? copyIntoPglite(client, text, source) : client.query(text, parameters);
    },
    close: () => client.close(),
  };
  return facade as unknown as PGlite;
}

/**
 * A database the service will not use as it is (a data directory of another PostgreSQL major version, a database
 * made before the schema baseline), with what to do in its message: the entry points print the message alone.
 */
export class DatabaseRefusedError extends Error {
  override name = 'DatabaseRefusedError';
}

/** The PostgreSQL major version the embedded database (PGlite 0.5) runs. */
const EMBEDDED_POSTGRES_MAJOR = '18';

/**
 * Refuses a data directory written by another PostgreSQL major version (an earlier release embedded 17): PGlite
 * cannot open it and says only that it failed to initialize.
 */
export function checkEmbeddedDataDir(dataDir: string): void {
  const versionFile = join(dataDir, 'PG_VERSION');
  if (!existsSync(versionFile)) return;
  const major = readFileSync(versionFile, 'utf8').trim();
  if (major !== EMBEDDED_POSTGRES_MAJOR) {
    throw new DatabaseRefusedError(
      `DATA_DIR (${dataDir}) holds a PostgreSQL ${major} database; the embedded database is PostgreSQL ${EMBEDDED_POSTGRES_MAJOR}. ` +
        'Move the directory away to start afresh (npm start seeds the demo newsroom again), or point DATABASE_URL at a PostgreSQL server.',
    );
  }
}

/** The contrib extensions the migrations create (pg_trgm: search suggestions), loaded by every PGlite that opens the schema. */
export const PGLITE_EXTENSIONS = { pg_trgm };

async function openPglite<T>(dataDir: string): Promise<Database<T>> {
  if (dataDir !== 'memory://') checkEmbeddedDataDir(dataDir);
  // One options object: PGlite's two-argument form drops the options when the data directory is undefined
  // (in memory), which left int8 as a JS number there.
  const client = new PGlite({
    ...(dataDir === 'memory://' ? {} : { dataDir }),
    parsers: { [INT8_OID]: (value: string) => value },
    extensions: PGLITE_EXTENSIONS,
  });
  await client.waitReady;
  const db = new Kysely<T>({ dialect: new PGliteDialect(copyAwarePglite(client)) });
  return {
    db,
    driver: 'pglite',
    connections: 1,
    withSession: (fn) =>
      // PGlite is one session; holding a Kysely connection keeps other queries out meanwhile.
      db.connection().execute(() =>
        fn({
          exec: async (script) => {
            await client.exec(script);
          },
          query: async <T>(text: string) => (await client.query<T>(text)).rows,
        }),
      ),
    ping: (timeoutMs) =>
      withDeadline(
        sql`select 1`.execute(db).then(() => undefined),
        timeoutMs,
        'database ping',
      ),
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    close: () => db.destroy(),
  };
}
