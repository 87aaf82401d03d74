#!/usr/bin/env node
// The static checks of npm test, side by side: the type check (tsc) and ESLint each keep one core busy.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (script) =>
  new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], { stdio: 'inherit' });
    child.on('close', (code) => resolve({ script, code: code ?? 1 }));
  });

const failed = (await Promise.all([run('typecheck'), run('lint')])).filter((r) => r.code !== 0);
for (const { script, code } of failed) console.error(`npm run ${script} failed (${code})`);
process.exit(failed.length ? 1 : 0);
