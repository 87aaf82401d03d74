/**
 * `npm run docs:site-screenshots`: the pictures of docs/site.md, taken in Debian's Chromium from the demo newsroom (the
 * service in this process on the embedded database): a story page as a logged-in reader sees it, at a desktop's
 * width (docs/story-page.png, 1280 px) and a phone's (docs/story-page-phone.png, 390 px), the top of the page.
 */
import { chromium } from 'playwright-core';
import { startDemoServer } from './demo-server.js';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const SHOTS = [
  { file: 'docs/story-page.png', width: 1280, height: 900 },
  { file: 'docs/story-page-phone.png', width: 390, height: 844 },
];

const demo = await startDemoServer('screenshots');
const { base } = demo;
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
  await demo.close();
}
