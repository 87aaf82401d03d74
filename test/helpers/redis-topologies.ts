import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { createRedis, type RedisClient } from '../../src/platform/redis.js';
import type { Env } from './app.js';
import { until } from './until.js';

/**
 * The Redis deployments the shared stores are tested on: the suite's single server (TEST_REDIS_URL), and a
 * private Redis Cluster and Sentinel setup that a test file starts on free ports and tears down
 * (redis-server and redis-cli from the machine; `redis-server --sentinel` plays the sentinel).
 */
export interface RedisTopology {
  readonly name: string;
  /** The environment that puts a test app's nonces, rate limits and read generations on it, under `prefix`. */
  env(prefix: string): Env;
  /** A client of the test's own, as the service makes it (the key prefix applied to commands, not to SCAN). */
  client(prefix?: string): RedisClient;
  /** Every key whose name starts with `prefix`, on every master. */
  keys(prefix: string): Promise<string[]>;
  /** Sentinel only: a failover to the replica, resolved once the sentinel names the new master. */
  failover?(): Promise<void>;
  stop(): Promise<void>;
}

const execFileAsync = promisify(execFile);

/** Why the private topologies cannot run here, or false when redis-server and redis-cli are installed. */
export const redisServerMissing: string | false = (() => {
  for (const binary of ['redis-server', 'redis-cli'])
    if (spawnSync(binary, ['--version'], { stdio: 'ignore' }).status !== 0)
      return `needs ${binary} on the PATH to start a private Redis Cluster and Sentinel`;
  return false;
})();

async function scanAll(nodes: Redis[], prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, found] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
  }
  return keys;
}

const storesEnv = (prefix: string): Env => ({
  REDIS_URL: undefined,
  REDIS_SENTINELS: undefined,
  REDIS_SENTINEL_NAME: undefined,
  REDIS_CLUSTER_NODES: undefined,
  NONCE_STORE_DRIVER: 'redis',
  RATE_LIMIT_STORE_DRIVER: 'redis',
  REDIS_KEY_PREFIX: prefix,
});

/** The suite's own Redis server (TEST_REDIS_URL). */
export function singleNodeTopology(url: string): RedisTopology {
  return {
    name: 'one Redis server',
    env: (prefix) => ({ ...storesEnv(prefix), REDIS_URL: url }),
    client: (prefix = '') => createRedis({ kind: 'url', url }, prefix),
    async keys(prefix) {
      const plain = new Redis(url);
      try {
        return await scanAll([plain], prefix);
      } finally {
        plain.disconnect();
      }
    },
    stop: async () => undefined,
  };
}

/** A port that is free, and whose cluster bus port (+10000) is free too. */
async function freePort(taken: Set<number>): Promise<number> {
  const canListen = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    if (taken.has(port) || taken.has(port + 10_000)) continue;
    if ((await canListen(port)) && (await canListen(port + 10_000))) {
      taken.add(port);
      taken.add(port + 10_000);
      return port;
    }
  }
}

/** Starts redis-server processes in a temporary directory; stop() kills them (by their pid) and removes it. */
class Servers {
  readonly dir = mkdtempSync(join(tmpdir(), 'newsroom-redis-'));
  readonly ports = new Set<number>();
  private readonly children: ChildProcess[] = [];

  async start(args: string[]): Promise<void> {
    const child = spawn('redis-server', args, { cwd: this.dir, stdio: 'ignore' });
    this.children.push(child);
    const port = Number(args[args.indexOf('--port') + 1]);
    await this.until(`redis-server on ${port} answers`, async () => {
      const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } catch {
        return false;
      } finally {
        probe.disconnect();
      }
    });
  }

  until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
    return until(check, timeoutMs, what, 100);
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const plainNode = (port: number) => {
  const node = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
  node.on('error', () => undefined);
  return node;
};

/** Three masters without replicas, slots spread by `redis-cli --cluster create`. */
export async function startRedisCluster(): Promise<RedisTopology> {
  const servers = new Servers();
  const nodes: Redis[] = [];
  try {
    const ports = [await freePort(servers.ports), await freePort(servers.ports), await freePort(servers.ports)];
    const common = ['--cluster-enabled', 'yes', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--bind', '127.0.0.1'];
    await Promise.all(
      ports.map((port) =>
        servers.start(['--port', String(port), '--cluster-config-file', join(servers.dir, `nodes-${port}.conf`), ...common]),
      ),
    );
    await execFileAsync('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-yes'], {
      timeout: 20_000,
    });
    nodes.push(...ports.map(plainNode));
    await servers.until('every node says cluster_state:ok', async () => {
      const infos = await Promise.all(nodes.map((n) => n.cluster('INFO')));
      return infos.every((info) => String(info).includes('cluster_state:ok'));
    });
    const seeds = ports.map((port) => ({ host: '127.0.0.1', port }));
    return {
      name: 'a Redis Cluster of three masters',
      env: (prefix) => ({ ...storesEnv(prefix), REDIS_CLUSTER_NODES: seeds.map((s) => `${s.host}:${s.port}`).join(',') }),
      client: (prefix = '') => createRedis({ kind: 'cluster', nodes: seeds }, prefix),
      keys: (prefix) => scanAll(nodes, prefix),
      async stop() {
        for (const node of nodes) node.disconnect();
        await servers.stop();
      },
    };
  } catch (err) {
    for (const node of nodes) node.disconnect();
    await servers.stop();
    throw err;
  }
}

export const SENTINEL_MASTER_NAME = 'mymaster';

/** A master, one replica and one sentinel (quorum 1) watching them. */
export async function startRedisSentinel(): Promise<RedisTopology> {
  const servers = new Servers();
  const clients: Redis[] = [];
  try {
    const [masterPort, replicaPort, sentinelPort] = [
      await freePort(servers.ports),
      await freePort(servers.ports),
      await freePort(servers.ports),
    ];
    const common = ['--save', '', '--appendonly', 'no', '--daemonize', 'no', '--bind', '127.0.0.1'];
    await servers.start(['--port', String(masterPort), ...common]);
    await servers.start(['--port', String(replicaPort), '--replicaof', '127.0.0.1', String(masterPort), ...common]);
    const conf = join(servers.dir, 'sentinel.conf');
    writeFileSync(
      conf,
      [
        `sentinel monitor ${SENTINEL_MASTER_NAME} 127.0.0.1 ${masterPort} 1`,
        `sentinel down-after-milliseconds ${SENTINEL_MASTER_NAME} 1000`,
        `sentinel failover-timeout ${SENTINEL_MASTER_NAME} 10000`,
        '',
      ].join('\n'),
    );
    await servers.start([conf, '--sentinel', '--port', String(sentinelPort), '--bind', '127.0.0.1', '--daemonize', 'no']);
    const sentinel = plainNode(sentinelPort);
    clients.push(sentinel);
    const masterPortNow = async () =>
      Number(((await sentinel.call('SENTINEL', 'get-master-addr-by-name', SENTINEL_MASTER_NAME)) as string[])[1]);
    // a failover needs a replica the sentinel knows and that is in sync
    await servers.until('the sentinel knows the replica, in sync with the master', async () => {
      const replicas = (await sentinel.call('SENTINEL', 'replicas', SENTINEL_MASTER_NAME)) as string[][];
      const fields = replicas.map((r) => Object.fromEntries(r.flatMap((v, i) => (i % 2 ? [] : [[v, r[i + 1]]]))));
      return fields.some((r) => r.flags === 'slave' && r['master-link-status'] === 'ok');
    });
    const nodes = [plainNode(masterPort), plainNode(replicaPort)];
    clients.push(...nodes);
    const sentinels = [{ host: '127.0.0.1', port: sentinelPort }];
    return {
      name: 'a master and a replica behind Sentinel',
      env: (prefix) => ({ ...storesEnv(prefix), REDIS_SENTINELS: `127.0.0.1:${sentinelPort}`, REDIS_SENTINEL_NAME: SENTINEL_MASTER_NAME }),
      client: (prefix = '') => createRedis({ kind: 'sentinel', sentinels, name: SENTINEL_MASTER_NAME }, prefix),
      async keys(prefix) {
        const port = await masterPortNow();
        return scanAll(
          nodes.filter((n) => n.options.port === port),
          prefix,
        );
      },
      async failover() {
        const before = await masterPortNow();
        const master = nodes.find((n) => n.options.port === before)!;
        // what the master has acknowledged is on the replica before it is promoted
        await master.call('WAIT', '1', '5000');
        await sentinel.call('SENTINEL', 'failover', SENTINEL_MASTER_NAME);
        await servers.until('the sentinel names the replica as master', async () => (await masterPortNow()) !== before);
        const promoted = nodes.find((n) => n.options.port !== before)!;
        await servers.until('the promoted replica is a master', async () => (await promoted.info('replication')).includes('role:master'));
      },
      async stop() {
        for (const client of clients) client.disconnect();
        await servers.stop();
      },
    };
  } catch (err) {
    for (const client of clients) client.disconnect();
    await servers.stop();
    throw err;
  }
}
