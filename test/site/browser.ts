import axe from 'axe-core';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser as ChromiumBrowser, type BrowserContext, type Page } from 'playwright-core';
import { atProcessEnd } from '../helpers/process-end.js';
import { CATALOGUES } from '../../src/platform/i18n/index.js';
import { WORDS } from '../../src/web/words/index.js';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it when missing). No browser is downloaded. */
export const CHROMIUM = '/usr/bin/chromium';

/** node:test's `skip` option for a browser test: the reason when Chromium is absent, else false. */
export function needsChromium(): string | false {
  return existsSync(CHROMIUM) ? false : `needs Chromium at ${CHROMIUM} (apt-get install -y chromium; .ci/run does it)`;
}

/** Screenshots of every page visited: test artifacts, git-ignored. */
export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'site');

/** axe-core's own script, injected into each page checked. */
const AXE_SOURCE = axe.source;

/** Every key of the catalogues (the web layer's words and the API's labels): one showing on a page means a label was not translated. */
const KEYS = [...Object.keys(WORDS.en), ...Object.keys(CATALOGUES.en)];

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Problems seen since the last check: error answers, console errors (CSP violations), page errors. */
  problems: string[];
  close(): Promise<void>;
}

/** The process's Chromium, launched by the first openBrowser() and closed as the process ends (test/helpers/app.ts). */
let shared: Promise<ChromiumBrowser> | undefined;

function sharedChromium(): Promise<ChromiumBrowser> {
  shared ??= chromium
    .launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
    .then((browser) => {
      atProcessEnd(() => browser.close());
      return browser;
    });
  return shared;
}

/**
 * A new browser for a test: its own context (cookies, storage, cache: nothing shared with another) in the test
 * process's one headless Chromium, at a phone's width (375 px) unless told, light unless told. Launching Chromium
 * once per process instead of once per test saves about a second of its start each time.
 */
export async function openBrowser(
  viewport = { width: 375, height: 812 },
  options: { colorScheme?: 'light' | 'dark' } = {},
): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const context = await (await sharedChromium()).newContext({ viewport, colorScheme: options.colorScheme ?? 'light' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return {
    context,
    page,
    problems,
    close: () => context.close(),
  };
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Logs in with the development login as the person `name` stands for, from the login page `page` is on; a first
 * login goes by the name page, where it chooses `displayName` (the name, capitalized, unless told), and then on.
 */
export async function devLogIn(page: Page, name: string, displayName = `${name.charAt(0).toUpperCase()}${name.slice(1)}`) {
  await page.getByLabel('Your test name').fill(name);
  await page.getByRole('button', { name: 'Log in (development)' }).click();
  if (new URL(page.url()).pathname === '/me/name') {
    await page.getByLabel('Display name').fill(displayName);
    await page.locator('form[action="/me/name"] button[type="submit"]').click();
  }
}

/**
 * The checks every page passes: no error answer or console error since the last check, no catalogue key or
 * unfilled placeholder in its text, nothing wider than the phone's screen, and no serious or critical axe-core
 * violation. Saves a screenshot named `name` when the page fails (of every page with TEST_SCREENSHOTS=1). Returns
 * the problems found (empty when the page passes).
 */
export async function checkPage(browser: Browser, name: string): Promise<string[]> {
  const { page } = browser;
  await page.waitForLoadState('load');
  const found = browser.problems.splice(0);
  const text = await page.locator('body').innerText();
  for (const key of KEYS) if (text.includes(key)) found.push(`untranslated key ${key}`);
  const placeholder = /\{[A-Za-z]+\}/.exec(text);
  if (placeholder) found.push(`unfilled placeholder ${placeholder[0]}`);
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
  if (widths.page > widths.screen) found.push(`layout wider than the screen: ${widths.page} px > ${widths.screen} px`);
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } })
      .axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  for (const v of violations) {
    if (v.impact === 'serious' || v.impact === 'critical') {
      found.push(`axe ${v.impact} ${v.id}: ${v.help} at ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`);
    }
  }
  // the artifact of a page that failed: a full-page PNG of every page the suite checks is Chromium work no check reads
  if (found.length > 0 || process.env.TEST_SCREENSHOTS === '1')
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  return found;
}
