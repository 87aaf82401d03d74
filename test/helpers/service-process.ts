import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The real service (src/server.ts through tsx) as a child process, as an operator runs it: its own event loop,
 * its own signals. Used by the graceful-shutdown test and by `npm run soak`.
 */

export interface ServiceProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) when the process is gone. */
  exited: Promise<number | string | null>;
  /** What the process wrote to stderr (and stdout, when `captureStdout`), for reports. */
  output(): string;
  /** Sends `signal` (SIGTERM by default) and waits for the exit; SIGKILL after `killAfterMs`. */
  stop(signal?: NodeJS.Signals, killAfterMs?: number): Promise<number | string | null>;
}

/** A port nobody listens on now (the kernel's choice); the service is started on it right after. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startService(env: Record<string, string>, options: { startTimeoutMs?: number } = {}): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', ...env, PORT: String(port) },
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
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    if (gone) throw new Error(`the service exited before listening:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the service did not listen within ${options.startTimeoutMs ?? 60_000} ms:\n${output}`);
    }
    const ok = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) })
      .then((r) => r.status === 200)
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
