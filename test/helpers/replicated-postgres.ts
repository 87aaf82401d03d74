import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './service-process.js';

/**
 * A private PostgreSQL primary and a streaming replica of it (pg_basebackup -R), each in a temp directory on
 * a free port, trust auth, database `newsroom`. PG_BIN names the binaries; else the newest of
 * /usr/lib/postgresql/<version>/bin.
 */
export interface ReplicatedPostgres {
  primaryUrl: string;
  replicaUrl: string;
  stopReplica(): void;
  startReplica(): void;
  destroy(): void;
}

function postgresBin(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/** The reason the pair cannot be started here, or false. */
export function replicatedPostgresMissing(): string | false {
  const bin = postgresBin();
  if (!bin || spawnSync(join(bin, 'initdb'), ['--version']).status !== 0)
    return 'PostgreSQL binaries not found (PG_BIN or /usr/lib/postgresql/*/bin): the test runs its own primary and replica';
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0)
    return 'running as root and there is no postgres user to own a private cluster';
  return false;
}

export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const bin = postgresBin()!;
  const dir = mkdtempSync(join(tmpdir(), 'replica-pg-'));
  // PostgreSQL refuses to run as root: as root, the clusters belong to the `postgres` system user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const run = (name: string, args: string[]) => {
    const r = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', join(bin, name), ...args], { encoding: 'utf8' })
      : spawnSync(join(bin, name), args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${name} ${args.join(' ')} failed: ${r.stderr}${r.stdout}`);
  };
  const primaryData = join(dir, 'primary');
  const replicaData = join(dir, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const options = (port: number) =>
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60 -c wal_level=replica -c max_wal_senders=4`;
  const pgCtl = (data: string, port: number, ...args: string[]) =>
    run('pg_ctl', ['-D', data, '-o', options(port), '-l', join(dir, `${port}.log`), '-w', ...args]);

  // initdb's pg_hba.conf with --auth=trust lets every local user in, replication connections included
  run('initdb', ['-D', primaryData, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  pgCtl(primaryData, primaryPort, 'start');
  run('createdb', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', 'newsroom']);
  // -R: standby.signal and primary_conninfo, so the copy starts as a streaming replica of the primary
  run('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'postgres',
    '-D',
    replicaData,
    '-R',
    '-X',
    'stream',
    '--checkpoint=fast',
    '--no-sync',
  ]);
  pgCtl(replicaData, replicaPort, 'start');

  const stop = (data: string) => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already stopped
    }
  };
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/newsroom`,
    replicaUrl: `postgres://postgres@127.0.0.1:${replicaPort}/newsroom`,
    stopReplica: () => run('pg_ctl', ['-D', replicaData, '-m', 'fast', '-w', 'stop']),
    startReplica: () => pgCtl(replicaData, replicaPort, 'start'),
    destroy: () => {
      stop(replicaData);
      stop(primaryData);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
