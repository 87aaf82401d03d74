#!/usr/bin/env node
// The static checks, side by side (each is single-threaded, so together they keep every core busy):
//   node scripts/checks.mjs          the type check and every lint (npm test runs this before the tests)
//   node scripts/checks.mjs --lint   the lints only (npm run lint)
import { spawn } from 'node:child_process';
import { delimiter, resolve } from 'node:path';

// the tools of node_modules/.bin, also when this runs outside npm
const env = { ...process.env, PATH: `${resolve('node_modules/.bin')}${delimiter}${process.env.PATH}` };

const LINTS = {
  eslint: ['eslint', '--cache', '--cache-location', 'node_modules/.cache/eslint/', '.'],
  prettier: ['prettier', '--check', '--cache', '.', '--log-level', 'warn'],
  // knip (unused files, exports and dependencies), the architecture rules, then the OpenAPI document's lint
  rest: ['sh', '-c', 'knip && node scripts/check-architecture.mjs && npm run --silent lint:openapi'],
};
const tasks = { ...(process.argv.includes('--lint') ? {} : { typecheck: ['tsc', '-p', 'tsconfig.json', '--noEmit'] }), ...LINTS };

const run = (name, [command, ...args]) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    child.on('error', () => resolve({ name, code: 1 }));
    child.on('close', (code) => resolve({ name, code: code ?? 1 }));
  });

const failed = (await Promise.all(Object.entries(tasks).map(([name, command]) => run(name, command)))).filter((r) => r.code !== 0);
for (const { name, code } of failed) console.error(`${name} failed (${code})`);
process.exit(failed.length ? 1 : 0);
