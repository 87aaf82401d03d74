import { execFile } from 'node:child_process';
import { join } from 'node:path';

/**
 * The node arguments that run one of the repository's TypeScript entry points (`src/server.ts`, a CLI) in a child
 * process: the test run's compiled copy of it when scripts/run-tests.mjs built one (TEST_BUILD_DIR, the same
 * esbuild output the test files themselves run from), else the source through tsx. The compiled copy starts in
 * about half the CPU time (2.4 s against 5.3 s for the whole app on the 2-core machine), and a run starts a few
 * dozen such processes.
 */
export function tsEntry(file: string): string[] {
  const build = process.env.TEST_BUILD_DIR;
  return build ? [join(build, file.replace(/\.tsx?$/, '.js'))] : ['--import', 'tsx', file];
}

/** What a command run by `runEntry` left: its exit status (1 when it died otherwise) and its output. */
export interface EntryRun {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the entry point `file` (as `tsEntry` gives it) with `args` in a child process, asynchronously: the server a
 * test talks to may be in this process. Resolves once the command ends, whatever its status.
 */
export function runEntry(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<EntryRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...tsEntry(file), ...args], { env, encoding: 'utf8', maxBuffer: 1 << 26 }, (err, stdout, stderr) =>
      resolve({ status: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
