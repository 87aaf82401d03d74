#!/usr/bin/env node
// Refreshes the screenshots of docs/console/ from the console as it is now. The Chromium tests under test/console
// open these pages and, with TEST_SCREENSHOTS=1, save each page they check (test/site/browser.ts, checkPage) under
// test-artifacts/site/: this runs those tests, one process at a time, and copies the pages the docs show.
//   npm run docs:console-screenshots
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const ARTIFACTS = join('test-artifacts', 'site');
/** docs/console/<file> ← the test that opens the page, and the page's name there (all at a desktop's 1280 px). */
const SHOTS = {
  'control-plane-request.png': ['test/console/console-browser.test.ts', 'console-request'],
  'governance.png': ['test/console/console-browser.test.ts', 'console-governance'],
  'correction-preview.png': ['test/console/console-moderation-browser.test.ts', 'console-moderation-correction-preview-1280'],
  'integrity.png': ['test/console/console-integrity-browser.test.ts', 'integrity-analysis-1280'],
  'settlement-preview.png': ['test/console/console-money-browser.test.ts', 'console-money-preview'],
  'batch-finalize-confirm.png': ['test/console/console-batch-finalize-browser.test.ts', 'console-batch-confirm'],
  'batch-finalize-request.png': ['test/console/console-batch-finalize-browser.test.ts', 'console-batch-filed'],
};

const shots = Object.entries(SHOTS);
for (const [, [, page]] of shots) rmSync(join(ARTIFACTS, `${page}.png`), { force: true });
const files = [...new Set(shots.map(([, [file]]) => file))];
const run = spawnSync(process.execPath, ['scripts/run-tests.mjs', ...files], {
  stdio: 'inherit',
  env: { ...process.env, TEST_CONCURRENCY: '1', TEST_SCREENSHOTS: '1' },
});
if (run.status !== 0) {
  console.error('console-screenshots: the tests failed; docs/console/ is left as it was');
  process.exit(1);
}
const missing = shots.filter(([, [, page]]) => !existsSync(join(ARTIFACTS, `${page}.png`)));
if (missing.length) {
  console.error(`console-screenshots: no page saved for ${missing.map(([name]) => name).join(', ')} (Chromium missing? the tests skip)`);
  process.exit(1);
}
for (const [name, [, page]] of shots) copyFileSync(join(ARTIFACTS, `${page}.png`), join('docs', 'console', name));
console.log(`console-screenshots: ${shots.length} screenshots copied to docs/console/`);
