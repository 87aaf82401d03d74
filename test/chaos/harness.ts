import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_API_KEY, TEST_OPS_TOKEN, TEST_SECRET } from '../helpers/app.js';
import { freePort } from '../helpers/service-process.js';
import { until } from '../helpers/until.js';

export { freePort, startService, type ServiceProcess } from '../helpers/service-process.js';
export { startRoundRobinProxy, type RoundRobinProxy } from '../helpers/round-robin-proxy.js';

/**
 * What the reliability tests and `npm run chaos` break things with: service processes (the real entry point,
 * test/helpers/service-process.ts), a round-robin HTTP proxy in
 * front of several, and PRIVATE PostgreSQL and Redis servers on their own ports that may be stopped and
 * started again. The shared servers of the machine are never touched.
 */

export type Env = Record<string, string>;

/**
 * The environment of a service process on a shared PostgreSQL and Redis with webhooks to a local HTTPS
 * receiver (its certificate trusted through NODE_EXTRA_CA_CERTS); `overrides` win.
 */
export function serviceEnv(
  stores: { databaseUrl: string; redisUrl: string; redisKeyPrefix: string },
  webhooks: { certPath: string; receiverUrl: string; secret: string },
  overrides: Env = {},
): Env {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    SEED_DEMO: '0',
    DATABASE_URL: stores.databaseUrl,
    REDIS_URL: stores.redisUrl,
    REDIS_KEY_PREFIX: stores.redisKeyPrefix,
    NONCE_STORE_DRIVER: 'redis',
    RATE_LIMIT_STORE_DRIVER: 'redis',
    HUMAN_SIGNING_SECRET: TEST_SECRET,
    PUBLIC_API_KEYS: TEST_API_KEY,
    API_OPERATIONS_TOKEN: TEST_OPS_TOKEN,
    CONTENT_ADMIN_IDS: 'h_admin',
    RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '1000000',
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '1000000',
    NODE_EXTRA_CA_CERTS: webhooks.certPath,
    WEBHOOK_ENDPOINTS: webhooks.receiverUrl,
    WEBHOOK_SIGNING_SECRET: webhooks.secret,
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: '1',
    WEBHOOK_POLL_MS: '50',
    WEBHOOK_RETRY_BASE_MS: '200',
    WEBHOOK_TIMEOUT_MS: '2000',
    ...overrides,
  };
}

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PrivatePostgres {
  url: string;
  port: number;
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  destroy(): void;
}

/** A throwaway PostgreSQL 15 cluster in a temp directory on its own port (trust auth, database `chaos`). */
export async function startPrivatePostgres(): Promise<PrivatePostgres | string> {
  if (spawnSync(`${PG_BIN}/initdb`, ['--version']).status !== 0) return `PostgreSQL binaries not found in ${PG_BIN}`;
  const dir = mkdtempSync(join(tmpdir(), 'chaos-pg-'));
  const data = join(dir, 'data');
  const port = await freePort();
  // PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` system user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gids = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (ids.status !== 0) return 'running as root and there is no postgres user to own a private cluster';
    chownSync(dir, Number(ids.stdout.trim()), Number(gids.stdout.trim()));
  }
  const run = (bin: string, args: string[]) => {
    const r = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', `${PG_BIN}/${bin}`, ...args], { encoding: 'utf8' })
      : spawnSync(`${PG_BIN}/${bin}`, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed: ${r.stderr}${r.stdout}`);
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const pg: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/chaos`,
    port,
    start: () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']),
    stop: (mode = 'fast') => run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']),
    destroy: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  pg.start();
  run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'chaos']);
  return pg;
}

export interface PrivateRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** A throwaway redis-server on its own port, without persistence (a restart comes back empty). */
export async function startPrivateRedis(): Promise<PrivateRedis | string> {
  if (spawnSync('redis-server', ['--version']).status !== 0) return 'redis-server not found on PATH';
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const redis: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: 'ignore',
      });
      const c = child;
      exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
      await until(() => pingRedis(port), 10_000, 'the private redis-server');
    },
    async stop() {
      child?.kill('SIGKILL');
      await exited;
    },
    destroy: () => redis.stop(),
  };
  await redis.start();
  return redis;
}

async function pingRedis(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      socket.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
  });
}
