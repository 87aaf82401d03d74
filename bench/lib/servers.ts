import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingNodeFlags } from '../../src/platform/node-flags.js';
import type { BaselineName, BaselineOptions } from '../baselines.js';
import type { BenchSettings } from './settings.js';

/**
 * What a server process runs: the real service (buildApp from src/app.ts with `env` given to loadConfig), one
 * of the bare baselines of bench/baselines.ts, or the round-robin proxy (test/helpers/round-robin-proxy.ts) in
 * front of other server processes.
 */
export type ServerSpec =
  | { kind: 'app'; env: Record<string, string> }
  | { kind: 'baseline'; name: BaselineName; options: BaselineOptions }
  | { kind: 'proxy'; targets: string[] };

/** Messages between the driver and a server process (bench/server.ts). */
export type ToServer = { type: 'cpu' } | { type: 'stop' };
export type FromServer =
  { type: 'listening'; port: number } | { type: 'cpu'; usage: NodeJS.CpuUsage; forwarded?: number[] } | { type: 'failed'; error: string };

/** What a server process reports when asked: its CPU time so far and, for a proxy, the requests sent to each target so far. */
export interface ServerSample {
  /** User + system, microseconds. */
  cpuMicros: number;
  /** The system (kernel) part of cpuMicros. */
  systemMicros: number;
  forwarded?: number[];
}

export interface RunningServer {
  url: string;
  pid: number;
  sample(): Promise<ServerSample>;
  stop(): Promise<void>;
}

const SERVER_ENTRY = fileURLToPath(new URL('../server.ts', import.meta.url));
const START_TIMEOUT_MS = 60_000;

/**
 * Starts a server in its own process and waits until it listens on 127.0.0.1 (a free port).
 *
 * Why a child process and not the driver's own process: Node serves HTTP on one thread. With the server and
 * autocannon in one process they would share one event loop, so the server would get part of one core and
 * autocannon's own request building and response parsing would be charged to the server's req/s and latency.
 * In its own process the server owns a whole event loop, as in production, and the two cores of this machine
 * are shared by the OS between the server, autocannon (in the driver), PostgreSQL and Redis. The child is
 * forked with the driver's execArgv, so it runs the TypeScript through the same tsx loader; that only costs
 * start-up time, the measured code is the same compiled JavaScript either way.
 */
export async function startServer(spec: ServerSpec, settings: BenchSettings, label: string): Promise<RunningServer> {
  // Every server process runs with the node flags `npm start` gives the service (src/platform/node-flags.ts), the
  // baselines too: a ratio compares the service's code with a bare route on the same runtime.
  const execArgv = [...process.execArgv, ...missingNodeFlags()];
  // One directory per server: the tsx loader's hook thread writes its own profile next to the main thread's.
  if (settings.cpuProfileDir) execArgv.push('--cpu-prof', `--cpu-prof-dir=${join(settings.cpuProfileDir, `${label}-${Date.now()}`)}`);
  const child = fork(SERVER_ENTRY, [], {
    env: { ...process.env, BENCH_SERVER_SPEC: JSON.stringify(spec) },
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${label}: server did not listen within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    const onMessage = (msg: FromServer) => {
      if (msg.type === 'listening') {
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(msg.port);
      } else if (msg.type === 'failed') {
        clearTimeout(timer);
        reject(new Error(`${label}: server failed to start: ${msg.error}`));
      }
    };
    child.on('message', onMessage);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${label}: server process exited with code ${code} before listening`));
    });
  });

  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? -1,
    sample: () => ask(child),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: 'stop' } satisfies ToServer);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function ask(child: ChildProcess): Promise<ServerSample> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not report its CPU time')), 5_000);
    const onMessage = (msg: FromServer) => {
      if (msg.type !== 'cpu') return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve({
        cpuMicros: msg.usage.user + msg.usage.system,
        systemMicros: msg.usage.system,
        ...(msg.forwarded ? { forwarded: msg.forwarded } : {}),
      });
    };
    child.on('message', onMessage);
    child.send({ type: 'cpu' } satisfies ToServer);
  });
}

/** Several server processes of one spec behind a round-robin proxy in a process of its own; the load goes to `url`. */
export interface ProxiedServers {
  /** The proxy's address. */
  url: string;
  instances: RunningServer[];
  proxy: RunningServer;
  stop(): Promise<void>;
}

/**
 * Starts `instances` server processes of `spec` and the round-robin proxy in front of them, each in its own
 * process: the driver (autocannon) shares no event loop with the proxy, and the proxy's CPU is measured apart.
 * If any of them fails to start, the ones already started are stopped.
 */
export async function startBehindProxy(
  spec: ServerSpec,
  instances: number,
  settings: BenchSettings,
  label: string,
): Promise<ProxiedServers> {
  const started = await Promise.allSettled(Array.from({ length: instances }, (_, i) => startServer(spec, settings, `${label}-${i + 1}`)));
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  let proxy: RunningServer | undefined;
  try {
    if (failed) throw failed.reason;
    proxy = await startServer({ kind: 'proxy', targets: servers.map((s) => s.url) }, settings, `${label}-proxy`);
  } catch (err) {
    await Promise.all(servers.map((s) => s.stop()));
    throw err;
  }
  const running = proxy;
  return {
    url: running.url,
    instances: servers,
    proxy: running,
    async stop() {
      await running.stop();
      await Promise.all(servers.map((s) => s.stop()));
    },
  };
}
