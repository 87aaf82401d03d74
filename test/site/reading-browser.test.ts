import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { t as label } from '../../src/web/words/index.js';
import { LANGS } from '../../src/platform/schemas.js';
import { createDemoTestApp, type TestApp } from '../helpers/app.js';
import { checkPage, needsChromium, openBrowser, type Browser } from './browser.js';

/**
 * What a reader sees around the stories, in a real browser at a phone's width (390 px) and a desktop's (1280 px),
 * light and dark (the system's setting): the one line that says what the site is, times as "3 hours ago" with the
 * exact time on hover, the ledger's times on one line, the language of a story not in the reader's, rooms by
 * name, and the language menu that closes on Escape.
 */
const skip = needsChromium();
let t: TestApp;
let base: string;
let storyId: string;

before(async () => {
  if (skip) return;
  t = await createDemoTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000', HUMAN_PROOF_VERIFIER: 'dev' });
  const row = await t.app.ctx.database.db
    .selectFrom('stories')
    .select('id')
    .where('publication_stage', '!=', 'CANDIDATE')
    .where('moderation_status', 'not in', ['QUARANTINED', 'BLOCKED'])
    .orderBy('id')
    .executeTakeFirstOrThrow();
  storyId = row.id;
  base = await t.listen();
});

after(async () => {
  if (skip) return;
  await t.close();
});

const withBrowser = async (width: number, colorScheme: 'light' | 'dark', fn: (browser: Browser) => Promise<void>) => {
  const browser = await openBrowser({ width, height: 900 }, { colorScheme });
  try {
    await fn(browser);
  } finally {
    await browser.close();
  }
};
const passes = async (browser: Browser, name: string) => assert.deepEqual(await checkPage(browser, name), [], `page ${name}`);

test('on a phone a logged-out reader reads in one line what the site is, in each language', { skip }, async () => {
  await withBrowser(390, 'light', async (browser) => {
    const { page } = browser;
    for (const lang of LANGS) {
      await page.goto(`${base}/?lang=${lang}`);
      const about = page.locator('main > .about');
      assert.equal((await about.innerText()).trim(), label(lang, 'site.about'), lang);
      const lines = await about.evaluate((el) =>
        Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
      );
      assert.equal(lines, 1, `${lang}: one line`);
      await passes(browser, `about-390-${lang}`);
    }
  });
  await withBrowser(1280, 'light', async (browser) => {
    await browser.page.goto(`${base}/?lang=de`);
    assert.equal(await browser.page.locator('main > .about').isVisible(), true, 'on a desktop too');
    await passes(browser, 'about-1280-de');
  });
});

test('times read "… ago" in the page language with the exact UTC time on hover; the ledger keeps each on one line', { skip }, async () => {
  await withBrowser(390, 'light', async (browser) => {
    const { page } = browser;
    await page.goto(`${base}/ledger?lang=en`);
    const times = page.locator('#ledger-events time');
    assert.ok((await times.count()) > 0);
    for (const time of await times.all()) {
      assert.match(await time.innerText(), /^(\d+ (seconds?|minutes?|hours?|days?) ago|now|yesterday)$/);
      assert.match(String(await time.getAttribute('title')), /\d{4}.*UTC$/);
      const box = (await time.boundingBox())!;
      const lineHeight = await time.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 24);
      assert.ok(box.height < lineHeight * 1.5, `one line: ${box.height} px`);
    }
    await passes(browser, 'ledger-390');
    await page.goto(`${base}/ledger?lang=de`);
    assert.match(await page.locator('#ledger-events time').first().innerText(), /^(vor \d+ \p{L}+|jetzt|gestern)$/u);
    await page.goto(`${base}/ledger?lang=zh-Hans`);
    assert.match(await page.locator('#ledger-events time').first().innerText(), /(前|现在|昨天)$/);
  });
});

test('cards name a story in another language ("in Spanish", "auf Spanisch") and rooms by name', { skip }, async () => {
  await withBrowser(1280, 'light', async (browser) => {
    const { page } = browser;
    await page.goto(`${base}/?lang=en&mode=recent`);
    const cards = page.locator('#stories .card');
    const spanish = cards.filter({ has: page.locator('h3[lang="es"]') }).first();
    assert.equal(await spanish.locator('.in-lang').innerText(), 'in Spanish');
    const english = cards.filter({ has: page.locator('h3[lang="en"]') }).first();
    assert.equal(await english.locator('.in-lang').count(), 0, 'no label on a story in the reader language');
    // rooms by name, never by slug
    assert.ok((await page.locator('.card .room').allInnerTexts()).includes('World'));
    const chips = await page.getByRole('navigation', { name: 'Rooms' }).getByRole('link').allInnerTexts();
    assert.ok(chips.includes('World'), chips.join());
    assert.ok(
      chips.every((chip) => /^\p{Lu}/u.test(chip)),
      `names, not slugs: ${chips.join()}`,
    );
    await passes(browser, 'cards-1280-en');
    await page.goto(`${base}/?lang=de&mode=recent`);
    const inGerman = page
      .locator('#stories .card')
      .filter({ has: page.locator('h3[lang="es"]') })
      .first();
    assert.equal(await inGerman.locator('.in-lang').innerText(), 'auf Spanisch');
    assert.ok((await page.locator('.card .room').allInnerTexts()).includes('Welt'));
    await page.goto(`${base}/search?lang=fr&q=`);
    assert.ok((await page.locator('select[name="room"] option').allTextContents()).includes('Monde'));
  });
});

test('dark mode follows the system and passes axe at both widths, logged out and in', { skip }, async () => {
  for (const width of [390, 1280]) {
    await withBrowser(width, 'dark', async (browser) => {
      const { page } = browser;
      for (const path of ['/?lang=en', `/stories/${storyId}?lang=en`, '/ledger?lang=en', '/search?lang=en&q=the', '/rankings?lang=fr']) {
        await page.goto(`${base}${path}`);
        await passes(browser, `dark-${width}-${path.replace(/[^a-z0-9]+/gi, '-')}`);
      }
      const dark = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      assert.equal(dark, 'rgb(18, 20, 22)', 'the dark paper');
      // logged in: My newsroom and the story's forms
      await page.goto(`${base}/login?lang=en&next=${encodeURIComponent(`/stories/${storyId}?lang=en`)}`);
      await page.getByLabel('Your test name').fill(`dark-${width}`);
      await page.getByRole('button', { name: 'Log in (development)' }).click();
      await page.waitForLoadState('load');
      await passes(browser, `dark-${width}-name`);
      await page.goto(`${base}/stories/${storyId}?lang=en`);
      await passes(browser, `dark-${width}-story-in`);
      await page.goto(`${base}/me?lang=en`);
      await passes(browser, `dark-${width}-me`);
    });
  }
  await withBrowser(1280, 'light', async (browser) => {
    await browser.page.goto(`${base}/?lang=en`);
    assert.equal(await browser.page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'rgb(255, 255, 255)');
  });
});

test('the language menu closes on Escape and gives the focus back to its button', { skip }, async () => {
  await withBrowser(390, 'light', async (browser) => {
    const { page } = browser;
    await page.goto(`${base}/?lang=en`);
    const summary = page.locator('details.langs-menu summary');
    await summary.focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('details.langs-menu').getAttribute('open'), '');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.closest('details.langs-menu') !== null), true);
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('details.langs-menu').getAttribute('open'), null);
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'SUMMARY');
    await passes(browser, 'langs-escape');
  });
});
