import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { t as label } from '../../src/web/words/index.js';
import { roomName } from '../../src/web/site/format.js';
import { createDemoTestApp, type TestApp } from '../helpers/app.js';
import { checkPage, needsChromium, openBrowser, type Browser } from './browser.js';

/**
 * The search page in a real browser on the demo newsroom, at a phone's width (390 px) and a desktop's (1280 px):
 * the results come before the filters on the phone and beside them on the desktop, the room filter is a list of
 * the rooms, a typo offers a "did you mean" that finds stories, and a search that finds nothing says what to try.
 */
const skip = needsChromium();
let t: TestApp;
let base: string;
/** A long word of a visible story's title, its room, and the word with a letter left out (a typo). */
let word: string;
let typo: string;
let room: string;

before(async () => {
  if (skip) return;
  t = await createDemoTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000' });
  const rows = await t.app.ctx.database.db
    .selectFrom('stories')
    .select(['title', 'room'])
    .where('publication_stage', '!=', 'CANDIDATE')
    .where('moderation_status', 'not in', ['QUARANTINED', 'BLOCKED'])
    .where('lang', '=', 'en')
    .orderBy('id')
    .execute();
  const found = rows
    .flatMap((r) => r.title.split(/\s+/).map((w) => ({ w: w.toLowerCase(), room: r.room })))
    .find(({ w }) => /^[a-z]{8,}$/.test(w))!;
  word = found.w;
  room = found.room;
  typo = word.slice(0, 4) + word.slice(5);
  base = await t.listen();
});

after(async () => {
  if (skip) return;
  await t.close();
});

const withBrowser = async (width: number, fn: (browser: Browser) => Promise<void>) => {
  const browser = await openBrowser({ width, height: 900 });
  try {
    await fn(browser);
  } finally {
    await browser.close();
  }
};
const passes = async (browser: Browser, name: string) => assert.deepEqual(await checkPage(browser, name), [], `page ${name}`);

test('on a phone the results come before the folded filters; the room is chosen from a list', { skip }, async () => {
  await withBrowser(390, async (browser) => {
    const { page } = browser;
    await page.goto(`${base}/search?lang=en&q=${encodeURIComponent(word)}`);
    await passes(browser, 'search-phone');
    const results = await page.locator('#results').boundingBox();
    const filters = await page.locator('details.search-filters').boundingBox();
    assert.ok(results && filters && results.y < filters.y, 'results above the filters');
    assert.equal(await page.getByLabel('Room').isVisible(), false, 'the filters are folded');

    await page.getByText('Filters', { exact: true }).click();
    const options = await page.getByLabel('Room').locator('option').allInnerTexts();
    assert.equal(options[0], 'All rooms');
    // rooms by name, in the reader's language
    const roomLabel = roomName('en', room);
    assert.ok(options.includes(roomLabel), `${roomLabel} among ${options.join(', ')}`);
    await page.getByLabel('Room').selectOption(room);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(new RegExp(`room=${room}`));
    assert.match(page.url(), new RegExp(`q=${word}`), 'the words are kept');
    assert.ok((await page.locator('#results li').count()) >= 1);
    assert.equal(await page.getByLabel('Room').inputValue(), room);
    await passes(browser, 'search-phone-room');
  });
});

test('on a desktop the filters stand beside the results', { skip }, async () => {
  await withBrowser(1280, async (browser) => {
    const { page } = browser;
    await page.goto(`${base}/search?lang=en&q=${encodeURIComponent(word)}&room=${room.toUpperCase()}`);
    await passes(browser, 'search-desktop');
    const results = await page.locator('#results').boundingBox();
    const filters = await page.locator('details.search-filters').boundingBox();
    assert.ok(results && filters && filters.x > results.x + results.width - 1 && filters.y < results.y + results.height, 'filters beside');
    assert.equal(await page.getByLabel('Room').inputValue(), room, 'the room in any case is the room');
  });
});

test('a typo finds nothing, says what to try and offers the word it meant', { skip }, async () => {
  await withBrowser(390, async (browser) => {
    const { page } = browser;
    await page.goto(`${base}/search?lang=en&q=${encodeURIComponent(typo)}&room=${room}`);
    await passes(browser, 'search-typo');
    const empty = await page.locator('#no-match').innerText();
    assert.match(empty, new RegExp(`No story matches “${typo}”`));
    assert.match(empty, /check the spelling/);
    assert.doesNotMatch(await page.locator('main').innerText(), new RegExp(label('en', 'site.empty')));
    const results = await page.locator('.search-results').boundingBox();
    const filters = await page.locator('details.search-filters').boundingBox();
    assert.ok(results && filters && results.y < filters.y);

    assert.equal(await page.locator('#did-you-mean ins').innerText(), word);
    await page.locator('#did-you-mean').click();
    await page.waitForURL(new RegExp(`q=${word}`));
    assert.ok((await page.locator('#results li').count()) >= 1, 'the suggestion finds stories');
    assert.match(page.url(), new RegExp(`room=${room}`), 'the suggestion keeps the filters');
    await passes(browser, 'search-suggested');

    // the way out of filters that exclude everything: the same words without them
    await page.goto(`${base}/search?lang=en&q=${encodeURIComponent(word)}&reviewStatus=RETRACTED&state=GRADUATED`);
    await page.locator('#without-filters').click();
    await page.waitForURL((url) => !url.search.includes('reviewStatus'));
    assert.ok((await page.locator('#results li').count()) >= 1);
    await passes(browser, 'search-without-filters');
  });
});

test('the empty state speaks each language of the site', { skip }, async () => {
  await withBrowser(390, async (browser) => {
    const { page } = browser;
    for (const lang of ['en', 'es', 'fr', 'de', 'zh-Hans'] as const) {
      await page.goto(`${base}/search?lang=${lang}&q=qqzzxv`);
      assert.equal(await page.locator('#no-match p').first().innerText(), label(lang, 'site.search.noMatch', { q: 'qqzzxv' }));
      await passes(browser, `search-empty-${lang}`);
    }
  });
});
