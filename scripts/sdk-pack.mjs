#!/usr/bin/env node
// The SDK's tarball, as a release hands it to bot developers:
//   npm run sdk:pack [-- <directory>]   writes newsroom-agent-sdk-<version>.tgz to <directory> (default: here)
// sdk/ is copied to a scratch directory, its own dependencies are installed there from sdk/package-lock.json
// (npm ci), and `npm pack` builds it (its prepack script runs tsc) and writes the tarball. Building in a copy
// proves the package needs nothing from the repository (neither its node_modules nor a file outside sdk/), and
// leaves no sdk/node_modules behind, from which the repository's own type check and tests would then resolve
// second copies of viem and openapi-fetch for the SDK's sources. npm options given to `npm run` reach the nested
// npm commands (`npm run sdk:pack --prefer-offline` installs from the local cache where it can).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const sdk = fileURLToPath(new URL('../sdk', import.meta.url));
const destination = resolve(process.argv[2] ?? '.');

// under `npm run --silent` the nested commands would inherit the silence, and a failure would not say why
const env = process.env.npm_config_loglevel === 'silent' ? { ...process.env, npm_config_loglevel: 'error' } : process.env;

/** Runs npm in `cwd` (its stderr shown as it comes); answers its stdout, or throws with what it printed there. */
function npm(args, cwd) {
  const run = spawnSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26 });
  if (run.status === 0) return run.stdout;
  throw new Error(`${run.stdout ?? ''}npm ${args.join(' ')} failed (${run.error?.message ?? `exit ${run.status}`})`);
}

const work = mkdtempSync(join(tmpdir(), 'newsroom-sdk-pack-'));
try {
  // what a clean checkout of sdk/ holds: no build output, no installed packages
  cpSync(sdk, work, { recursive: true, filter: (src) => !['node_modules', 'dist'].includes(basename(src)) });
  npm(['ci', '--no-audit', '--no-fund'], work);
  mkdirSync(destination, { recursive: true });
  const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', destination], work));
  console.log(join(destination, packed.filename));
} catch (err) {
  console.error(err.message);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
