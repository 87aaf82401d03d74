/**
 * `npm run docs:site-screenshots`: the pictures of docs/site.md, taken in Debian's Chromium from the demo newsroom (the
 * service in this process on the embedded database): a story page as a logged-in reader sees it, at a desktop's
 * width (docs/story-page.png, 1280 px) and a phone's (docs/story-page-phone.png, 390 px), the top of the page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { seedDemoIfEmpty } from '../src/demo/seed.js';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const SHOTS = [
  { file: 'docs/story-page.png', width: 1280, height: 900 },
  { file: 'docs/story-page-phone.png', width: 390, height: 844 },
];

const dataDir = mkdtempSync(join(tmpdir(), 'screenshots-newsroom-'));
const config = loadConfig({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  HUMAN_PROOF_VERIFIER: 'dev',
  RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
});
const app = await buildApp(config);
await seedDemoIfEmpty(app.ctx);
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
const base = `http://127.0.0.1:${port}`;
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const home = await (await fetch(`${base}/?lang=en`)).text();
  // the first story in English whose page has comments, so that the picture shows people by name
  let story: string | undefined;
  for (const [, path] of home.matchAll(/href="(\/stories\/st_[A-Za-z0-9_-]+\?lang=en)"/g)) {
    story ??= path;
    const page = await (await fetch(`${base}${path}`)).text();
    if (page.includes('<article lang="en"') && page.includes('class="comment depth-0"')) {
      story = path;
      break;
    }
  }
  if (!story) throw new Error('the demo home page lists no story');
  for (const shot of SHOTS) {
    const context = await browser.newContext({ viewport: { width: shot.width, height: shot.height }, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(`${base}/login?lang=en&next=${encodeURIComponent(story)}`);
    await page.getByLabel('Your test name').fill('screenshots');
    await page.getByRole('button', { name: 'Log in (development)' }).click();
    if (new URL(page.url()).pathname === '/me/name') {
      await page.getByLabel('Display name').fill('Sam Reader');
      await page.locator('form[action="/me/name"] button[type="submit"]').click();
    }
    await page.goto(`${base}${story}`);
    await page.screenshot({ path: shot.file });
    console.log(`${shot.file}: ${story} at ${shot.width} px`);
    await context.close();
  }
} finally {
  await browser.close();
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
