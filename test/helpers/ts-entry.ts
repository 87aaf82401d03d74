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
