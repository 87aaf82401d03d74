import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A private PgBouncer in transaction pooling mode in front of the test server, for the tier that runs the
 * service's connections through a pooler (npm run test:pgbouncer, docs/operators.md "Behind PgBouncer").
 *
 * Its configuration lives in a temporary directory: it listens on a free port of 127.0.0.1, passes any database
 * name through to the server of TEST_DATABASE_URL (`* = host=… port=…`), and lets the listed users in without a
 * password (auth_type trust) while logging in to the server with the passwords of its auth_file. Run as root,
 * it is started with `-u postgres` (PgBouncer refuses to run as root).
 */

export const PGBOUNCER_BIN = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

/**
 * A PgBouncer that carries named statements in transaction mode (1.21 or later, `max_prepared_statements`), for
 * the tier's second pass: Debian 12's is 1.18, so scripts/build-pgbouncer.sh builds Debian 13's here.
 */
export const TRACKING_PGBOUNCER_BIN = process.env.PGBOUNCER_TRACKING_BIN ?? '/opt/pgbouncer-trixie/bin/pgbouncer';

/** The first PgBouncer that carries named statements in transaction mode. */
const TRACKING_SINCE: readonly [number, number] = [1, 21];

/**
 * The pooler of the second pass: the service's named statements on, and PgBouncer preparing each on the server
 * connection a transaction lands on (the service has about 40 hot statements; 200 is PgBouncer's default from
 * 1.24, written out for 1.21-1.23).
 */
export const TRACKING_POOLER = { bin: TRACKING_PGBOUNCER_BIN, maxPreparedStatements: 200 } as const;

export interface Pgbouncer {
  host: string;
  port: number;
  /** `url` (a URL of the test server) with the pooler's host and port instead. */
  through(url: string): string;
  /** Transactions and queries it carried per database (its admin console's SHOW STATS). */
  stats(): Promise<{ database: string; transactions: number; queries: number }[]>;
  stop(): Promise<void>;
}

/** The user of the pooler's admin console (no password: auth_type trust). */
const ADMIN_USER = 'pgbouncer_admin';

/**
 * Why PgBouncer `bin` cannot run here (the tier is then skipped), or undefined. With `tracking`, a PgBouncer that
 * does not carry named statements (before 1.21) cannot either.
 */
export function pgbouncerUnavailable(bin = PGBOUNCER_BIN, tracking = false): string | undefined {
  try {
    accessSync(bin, constants.X_OK);
  } catch {
    return tracking
      ? `${bin} is not installed (scripts/build-pgbouncer.sh builds it)`
      : `${bin} is not installed (apt-get install pgbouncer)`;
  }
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) return `${bin} --version failed: ${version.stderr || version.error?.message}`;
  if (tracking) {
    const [major = 0, minor = 0] = (/PgBouncer (\d+)\.(\d+)/.exec(version.stdout) ?? []).slice(1).map(Number);
    if (major < TRACKING_SINCE[0] || (major === TRACKING_SINCE[0] && minor < TRACKING_SINCE[1]))
      return `${bin} is ${version.stdout.split('\n')[0]}: named statements need ${TRACKING_SINCE.join('.')} or later`;
  }
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0)
    return 'running as root, and there is no postgres user for PgBouncer to switch to';
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

export interface PgbouncerOptions {
  /** The test server: its host and port are where every database is forwarded. */
  serverUrl: string;
  /** Users the pooler lets in, with the password it logs in to the server with. */
  users: { name: string; password: string }[];
  /** Server connections per database and user (the service's pool is 10 in the tests). */
  poolSize?: number;
  /** The binary (default PGBOUNCER_BIN). */
  bin?: string;
  /**
   * Named statements it carries per client connection (`max_prepared_statements`, PgBouncer 1.21 or later;
   * default: the setting is not written, and it carries none).
   */
  maxPreparedStatements?: number;
}

/** Starts a PgBouncer of its own and waits until it accepts connections. */
export async function startPgbouncer(options: PgbouncerOptions): Promise<Pgbouncer> {
  const bin = options.bin ?? PGBOUNCER_BIN;
  const unavailable = pgbouncerUnavailable(bin, options.maxPreparedStatements !== undefined);
  if (unavailable) throw new Error(`cannot start PgBouncer: ${unavailable}`);
  const server = new URL(options.serverUrl);
  const host = '127.0.0.1';
  const dir = mkdtempSync(join(tmpdir(), 'newsroom-pgbouncer-'));
  const log = join(dir, 'pgbouncer.log');
  const users = [...options.users, { name: ADMIN_USER, password: '' }];
  writeFileSync(join(dir, 'users.txt'), users.map((u) => `${quoted(u.name)} ${quoted(u.password)}\n`).join(''));
  const root = process.getuid?.() === 0;
  let lastError: Error | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    writeFileSync(
      join(dir, 'pgbouncer.ini'),
      [
        '[databases]',
        `* = host=${server.hostname} port=${server.port || '5432'}`,
        '[pgbouncer]',
        `listen_addr = ${host}`,
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'pidfile =',
        `logfile = ${log}`,
        'pool_mode = transaction',
        'auth_type = trust',
        `auth_file = ${join(dir, 'users.txt')}`,
        `admin_users = ${ADMIN_USER}`,
        'max_client_conn = 2000',
        `default_pool_size = ${options.poolSize ?? 10}`,
        // the tests create and drop a database per test: idle server connections are let go soon (the pools of
        // dropped databases stay listed, with their statistics, for the default hour)
        'server_idle_timeout = 5',
        'ignore_startup_parameters = extra_float_digits,options',
        'log_connections = 0',
        'log_disconnections = 0',
        ...(options.maxPreparedStatements !== undefined ? [`max_prepared_statements = ${options.maxPreparedStatements}`] : []),
        '',
      ].join('\n'),
    );
    if (root) {
      // it reads its files after switching to the postgres user
      chmodSync(dir, 0o755);
      for (const f of ['pgbouncer.ini', 'users.txt']) chmodSync(join(dir, f), 0o644);
      writeFileSync(log, '');
      chmodSync(log, 0o666);
    }
    const child: ChildProcess = spawn(bin, ['-q', ...(root ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    // -q: it logs to its logfile only; what comes before it opens that (a bad setting) is kept from stderr
    child.stderr?.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-2_000)));
    let exited = false;
    const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
    const deadline = Date.now() + 10_000;
    while (!exited && Date.now() < deadline && !(await accepts(host, port))) await new Promise((r) => setTimeout(r, 50));
    if (!exited && (await accepts(host, port))) {
      child.unref();
      (child.stderr as { unref?: () => void } | null)?.unref?.();
      const kill = () => child.kill('SIGTERM');
      process.once('exit', kill);
      return {
        host,
        port,
        through(url: string) {
          const parsed = new URL(url);
          parsed.hostname = host;
          parsed.port = String(port);
          return parsed.toString();
        },
        async stats() {
          const client = new pg.Client({ host, port, user: ADMIN_USER, database: 'pgbouncer' });
          await client.connect();
          try {
            // the admin console speaks the simple query protocol only: a query without parameters uses it
            const { rows } = await client.query<{ database: string; total_xact_count: string; total_query_count: string }>('SHOW STATS');
            return rows.map((r) => ({
              database: r.database,
              transactions: Number(r.total_xact_count),
              queries: Number(r.total_query_count),
            }));
          } finally {
            await client.end();
          }
        },
        async stop() {
          process.removeListener('exit', kill);
          if (!exited) {
            child.kill('SIGINT'); // safe shutdown: closes the pools
            await Promise.race([exit, new Promise((r) => setTimeout(r, 5_000))]);
            if (!exited) child.kill('SIGKILL');
          }
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    child.kill('SIGKILL');
    await exit;
    let logged = '';
    try {
      logged = readFileSync(log, 'utf8');
    } catch {
      // no log yet
    }
    lastError = new Error(`PgBouncer did not start on port ${port}: ${(stderr + logged).trim().split('\n').slice(-5).join(' | ')}`);
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError ?? new Error('PgBouncer did not start');
}
