import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { SERVICE_NODE_FLAGS } from '../../src/platform/node-flags.js';
import { tsEntry } from './ts-entry.js';
import { poolerEnv } from './db-template.js';

/**
 * The real service (src/server.ts) as a child process, as an operator runs it: its own event loop, its own
 * signals. Used by the graceful-shutdown test, the reliability tests and `npm run chaos` (test/chaos/), and
 * `npm run soak`.
 */

export interface ServiceProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) when the process is gone. */
  exited: Promise<number | string | null>;
  /** The last 200 kB the process wrote to stdout and stderr, for reports. */
  output(): string;
  /** Sends `signal` (SIGTERM by default) and waits for the exit; SIGKILL after `killAfterMs`. */
  stop(signal?: NodeJS.Signals, killAfterMs?: number): Promise<number | string | null>;
}

export interface StartOptions {
  /** The port to listen on (default: a free one); a restarted service keeps its predecessor's. */
  port?: number;
  /** The route that must answer 200 before the service counts as started (default /healthz). */
  ready?: 'healthz' | 'readyz';
  startTimeoutMs?: number;
  /** The node flags before the entry (default: those `npm start` passes, src/platform/node-flags.ts). */
  nodeFlags?: readonly string[];
}

/** A port nobody listens on now (the kernel's choice); the service is started on it right after. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * How the process is started: `src/server.ts` from the test run's compiled copy or through tsx (ts-entry.ts), or
 * the build in dist/ when CHAOS_SERVICE_ENTRY=dist (`npm run chaos` builds once: a restart then takes a fraction
 * of tsx's time).
 */
const entry = (): string[] => (process.env.CHAOS_SERVICE_ENTRY === 'dist' ? ['dist/src/server.js'] : tsEntry('src/server.ts'));

/** Starts the service with exactly `env` (plus PATH) and waits until its `ready` route answers 200. */
export async function startService(env: Record<string, string>, options: StartOptions = {}): Promise<ServiceProcess> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, [...(options.nodeFlags ?? SERVICE_NODE_FLAGS), ...entry()], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', ...poolerEnv, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-200_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const url = `http://127.0.0.1:${port}`;
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (gone) throw new Error(`the service exited before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the service was not ready within ${startTimeoutMs} ms:\n${output}`);
    }
    const ok = await fetch(`${url}/${options.ready ?? 'healthz'}`, { signal: AbortSignal.timeout(5_000) })
      .then(async (r) => {
        await r.arrayBuffer();
        return r.status === 200;
      })
      .catch(() => false);
    if (ok) break;
    await sleep(100);
  }
  return {
    url,
    port,
    child,
    exited,
    output: () => output,
    async stop(signal = 'SIGTERM', killAfterMs = 30_000) {
      if (!gone) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
