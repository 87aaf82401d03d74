/**
 * `npm run lighthouse`: Lighthouse 12.2.3 (pinned: later versions need Node 22) in Debian's Chromium on six pages
 * of the demo newsroom: the home page, a story, a search, a profile, "My newsroom" and "My activity" (logged in
 * with the development login). Prints the four category scores of each page, each the median of `LIGHTHOUSE_RUNS`
 * runs (3 by default: one run's performance score moves with the machine's load and Chromium's first, cold page),
 * and exits 1 when one is under 95. The service runs in this process on the embedded database, seeded with the demo
 * newsroom.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startDemoServer } from './demo-server.js';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const MINIMUM = 95;
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const demo = await startDemoServer('lighthouse');
const { base } = demo;

/** Logs in with the development login, as a browser would, and answers the session cookie. */
async function devLoginCookie(): Promise<string> {
  const form = await fetch(`${base}/login?lang=en`);
  let cookie = (form.headers.get('set-cookie') ?? '').split(';')[0]!;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const login = await fetch(`${base}/login/dev`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: base, 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ _csrf: csrf, lang: 'en', back: '/me?lang=en', name: 'lighthouse' }).toString(),
  });
  if (login.status !== 303) throw new Error(`the development login answered ${login.status}`);
  cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  return cookie;
}

const home = await (await fetch(`${base}/?lang=en`)).text();
const story = /href="(\/stories\/st_[A-Za-z0-9_-]+\?lang=en)"/.exec(home)?.[1];
if (!story) throw new Error('the demo home page lists no story');
// a profile: a commenter's whose name a story shows, else the story's bot's
const storyPage = await (await fetch(`${base}${story}`)).text();
const profile = /href="(\/people\/[^"?]+\?lang=en)"/.exec(storyPage)?.[1] ?? /href="(\/bots\/[^"?]+\?lang=en)"/.exec(storyPage)?.[1];
if (!profile) throw new Error('the demo story links no profile');
const cookie = await devLoginCookie();
const pages: Array<[string, string, Record<string, string>]> = [
  ['home', '/?lang=en', {}],
  ['story', story, {}],
  ['search', '/search?lang=en&q=council', {}],
  ['profile', profile.replaceAll('&amp;', '&'), {}],
  ['my newsroom', '/me?lang=en', { Cookie: cookie }],
  ['my activity', '/me/activity?lang=en', { Cookie: cookie }],
];

const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
let failed = false;
try {
  console.log(`page          ${CATEGORIES.map((c) => c.padEnd(15)).join('')}`);
  for (const [name, path, headers] of pages) {
    const runs: Array<NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'] | undefined> = [];
    for (let run = 0; run < RUNS; run++) {
      const result = await lighthouse(`${base}${path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        extraHeaders: headers,
      });
      runs.push(result?.lhr);
    }
    const scores = CATEGORIES.map((c) => median(runs.map((lhr) => Math.round((lhr?.categories[c]?.score ?? 0) * 100))));
    if (scores.some((s) => s < MINIMUM)) {
      failed = true;
      for (const lhr of runs)
        for (const c of CATEGORIES)
          for (const ref of lhr?.categories[c]?.auditRefs ?? []) {
            const audit = lhr?.audits[ref.id];
            if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1)
              console.log(`  ${name}: ${c}: ${audit.id} ${audit.title} (${audit.displayValue ?? audit.score})`);
          }
    }
    console.log(`${name.padEnd(14)}${scores.map((s) => String(s).padEnd(15)).join('')}`);
  }
} finally {
  await chrome.kill();
  await demo.close();
}
if (failed) {
  console.error(`a score is under ${MINIMUM}`);
  process.exit(1);
}
