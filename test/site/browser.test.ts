import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { t as label } from '../../src/web/words/index.js';
import { createDemoTestApp, type TestApp } from '../helpers/app.js';
import { checkPage, needsChromium, openBrowser, type Browser } from './browser.js';

/**
 * The reader site in a real browser (Debian's Chromium through playwright-core), on the demo newsroom: a reader
 * follows links and forms from page to page at a phone's width, and every page passes checkPage (no error
 * answer, no untranslated label, no layout wider than 375 px, no serious or critical axe-core violation).
 * One browser for the whole file; skipped with its reason when Chromium is absent.
 */
const skip = needsChromium();
let t: TestApp;
let browser: Browser;
let base: string;
let revised: { id: string; title: string };

before(async () => {
  if (skip) return;
  t = await createDemoTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000' });
  const row = await t.app.ctx.database.db
    .selectFrom('stories')
    .select(['id', 'title'])
    .where('current_version', '>', 1)
    .where('publication_stage', '!=', 'CANDIDATE')
    .where('moderation_status', 'not in', ['QUARANTINED', 'BLOCKED'])
    .executeTakeFirstOrThrow();
  revised = row;
  base = await t.listen();
  browser = await openBrowser();
});

after(async () => {
  if (skip) return;
  await browser.close();
  await t.close();
});

const passes = async (name: string) => assert.deepEqual(await checkPage(browser, name), [], `page ${name}`);

test('a reader opens the feed, switches mode and language, and opens a story', { skip }, async () => {
  const { page } = browser;
  await page.goto(`${base}/`);
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  await passes('feed');

  // keyboard: the first Tab reaches the skip link, which moves focus to the content
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to the content');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');

  await page.getByRole('navigation', { name: 'Feed order' }).getByRole('link', { name: 'Recent' }).click();
  await page.waitForURL(/mode=recent/);
  assert.equal(await page.locator('h1').innerText(), 'Recent');
  await passes('feed-recent');

  // the language switch is a details menu: closed, its links are hidden; it opens without JavaScript
  assert.equal(await page.getByRole('link', { name: 'Deutsch' }).isVisible(), false);
  await page.getByText('Language: English').click();
  await page.getByRole('link', { name: 'Deutsch' }).click();
  await page.waitForURL(/lang=de/);
  assert.equal(await page.getAttribute('html', 'lang'), 'de');
  assert.match(page.url(), /mode=recent/, 'the language switch keeps the page');
  assert.equal(await page.locator('h1').innerText(), 'Neueste');
  await passes('feed-de');

  const first = page.locator('#stories h3 a').first();
  const title = await first.innerText();
  await first.click();
  await page.waitForURL(/\/stories\/st_/);
  assert.equal(await page.locator('h1').innerText(), title);
  assert.equal(await page.getAttribute('html', 'lang'), 'de');
  await page.getByRole('heading', { name: 'Wo diese Meldung steht' }).first().waitFor();
  await passes('story-de');
});

test('on a 390 × 844 phone the compact masthead leaves at least three headlines above the fold', { skip }, async () => {
  const phone = await browser.context.newPage();
  try {
    await phone.setViewportSize({ width: 390, height: 844 });
    for (const lang of ['en', 'es', 'fr', 'de', 'zh-Hans']) {
      await phone.goto(`${base}/?lang=${lang}`);
      const masthead = await phone.locator('header.masthead').boundingBox();
      const third = await phone.locator('#stories .card h3').nth(2).boundingBox();
      assert.ok(masthead && masthead.height <= 100, `${lang}: the masthead is ${masthead?.height} px tall`);
      assert.ok(third && third.y + third.height <= 844, `${lang}: the third headline ends at ${third ? third.y + third.height : '?'} px`);
      assert.equal(await phone.locator('.tagline').isVisible(), false, 'the tagline is hidden on a phone');
    }
    // the language menu is a details element: it opens with a click on its summary (no script involved)
    await phone.goto(`${base}/?lang=en`);
    await phone.getByText('Language: English').click();
    await phone.getByRole('link', { name: 'Français' }).click();
    await phone.waitForURL(/lang=fr/);
  } finally {
    await phone.close();
  }
});

test('from a revised story to its machine room and its version diff', { skip }, async () => {
  const { page } = browser;
  await page.goto(`${base}/stories/${revised.id}?lang=en`);
  assert.equal(await page.locator('h1').innerText(), revised.title);
  await passes('story');

  await page.getByRole('link', { name: 'Machine room: the evidence behind this story' }).first().click();
  await page.waitForURL(/machine-room/);
  assert.equal(await page.locator('h1').innerText(), 'Machine room');
  await page.getByRole('heading', { name: /^\d+ attestations?$/ }).waitFor();
  await page.getByRole('heading', { name: 'Safety scan' }).waitFor();
  await passes('machine-room');

  await page.getByRole('link', { name: 'Compare versions' }).click();
  await page.waitForURL(/versions/);
  assert.match(await page.locator('h1').innerText(), /^Changes from version \d+ to version \d+$/);
  assert.ok((await page.locator('ins, del').count()) > 0, 'the diff marks what changed');
  await passes('versions');

  // any two versions: the form works without JavaScript
  await page.selectOption('select[name="from"]', '1');
  await page.selectOption('select[name="to"]', '1');
  await page.getByRole('button', { name: 'Show changes' }).click();
  await page.waitForURL(/from=1&to=1/);
  await page.getByText('Choose two different versions to see what changed.').waitFor();
  await passes('versions-same');
});

test('the ledger filters by bucket and pages with its cursor, in place with JavaScript and as links without', { skip }, async () => {
  const { page } = browser;
  await page.goto(`${base}/ledger?lang=fr&limit=3`);
  assert.equal(await page.locator('#ledger-events tr').count(), 3);
  await passes('ledger');

  // with JavaScript the next page joins the table in place
  await page.getByRole('link', { name: 'Événements plus anciens' }).click();
  await page.waitForFunction(() => document.querySelectorAll('#ledger-events tr').length > 3);
  assert.match(page.url(), /limit=3$/, 'the page itself did not change');
  const rows = await page.locator('#ledger-events tr').allInnerTexts();
  assert.equal(new Set(rows).size, rows.length, 'no event twice');

  // without JavaScript the same link is a page of its own
  const href = await page.getByRole('link', { name: 'Événements plus anciens' }).getAttribute('href');
  assert.ok(href);
  await page.goto(new URL(href, base).toString());
  assert.ok((await page.locator('#ledger-events tr').count()) >= 1);
  await passes('ledger-page-2');

  await page
    .getByRole('navigation', { name: 'Catégories du registre' })
    .getByRole('link', { name: label('fr', 'ledgerBucket.graduated') })
    .click();
  await page.waitForURL(/filters=graduated/);
  await passes('ledger-graduated');
});

test('search with the search route filters', { skip }, async () => {
  const { page } = browser;
  await page.goto(`${base}/search?lang=es`);
  await passes('search');
  const word = revised.title.split(/\s+/).find((w) => w.length > 5)!;
  await page.getByLabel('Palabras').fill(word);
  await page.getByRole('button', { name: 'Buscar' }).click();
  await page.waitForURL(/q=/);
  assert.ok((await page.locator('#results li').count()) >= 1, `results for ${word}`);
  assert.equal(await page.getByLabel('Palabras').inputValue(), word);
  await passes('search-results');
});

test('the modules and the rankings, in Chinese', { skip }, async () => {
  const { page } = browser;
  for (const [path, heading] of [
    ['/developing', 'module.developing.title'],
    ['/under-review', 'module.underReview.title'],
    ['/reward-window', 'module.rewardWindow.title'],
    ['/rankings', 'module.rankings.title'],
  ] as const) {
    await page.goto(`${base}${path}?lang=zh-Hans`);
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-Hans');
    assert.equal(await page.locator('h1').innerText(), label('zh-Hans', heading));
    await passes(path.slice(1));
  }
});

test('an unknown story is a 404 page in the reader language', { skip }, async () => {
  const { page } = browser;
  const response = await page.goto(`${base}/stories/st_nothing_here?lang=de`);
  assert.equal(response?.status(), 404);
  assert.equal(await page.locator('h1').innerText(), 'Nicht gefunden');
  const problems = await checkPage(browser, 'not-found');
  assert.deepEqual(
    problems.filter((p) => !p.startsWith('404 ') && !p.includes('404')),
    [],
  );
});
