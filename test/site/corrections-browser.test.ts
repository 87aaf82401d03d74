import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import axe from 'axe-core';
import { governanceApp, type GovernanceApp } from '../governance/support.js';
import { newsroomClient } from '../helpers/newsroom.js';
import type { Json } from '../helpers/json.js';
import { checkPage, needsChromium, openBrowser, type Browser } from './browser.js';

/**
 * Corrections and retractions as a reader sees them, in a real browser (Debian's Chromium through
 * playwright-core): a content admin corrects a story through the admin API, and the story page tells what changed,
 * why, when and by whom (a role, never an identity key) at a phone's and a desktop's width, in English and German;
 * the versions list names the editor and counts from 1; the diff shows claim text; a retraction says so; the feed
 * and search cards carry the label; My newsroom marks the saved story. Every page passes checkPage, and the notice
 * has no axe-core violation of any impact.
 */
const skip = needsChromium();
let g: GovernanceApp;
let base: string;
let browser: Browser;
const corrected = { id: '', note: 'The crossings start in June, not next month; the second claim said otherwise.' };
const retracted = { id: '', reason: 'The keeper named in the story does not exist.' };
const newClaim = 'The extra crossings start in June.';

before(async () => {
  if (skip) return;
  g = await governanceApp({ HUMAN_PROOF_VERIFIER: 'dev', RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '100000' });
  const news = newsroomClient(g.t.baseUrl);
  corrected.id = (await news.publishedStory()).storyId;
  retracted.id = (await news.publishedStory({ title: 'Lighthouse keeper retires after forty years' })).storyId;
  base = g.t.baseUrl;
  browser = await openBrowser({ width: 1280, height: 900 });
});

after(async () => {
  if (skip) return;
  await browser.close();
  await g.t.close();
});

const passes = async (name: string) => assert.deepEqual(await checkPage(browser, name), [], `page ${name}`);

/** axe-core on the correction notice alone: no violation of any impact. */
async function noticeHasNoViolation() {
  await browser.page.evaluate(axe.source);
  const violations = await browser.page.evaluate(async () => {
    const run = (globalThis as unknown as { axe: { run(context: unknown): Promise<{ violations: { id: string }[] }> } }).axe;
    return (await run.run('section.notice')).violations.map((v) => v.id);
  });
  assert.deepEqual(violations, []);
}

test('a reader saves a story, a content admin corrects it, and every page tells the reader', { skip }, async () => {
  const { page } = browser;
  // the reader logs in (development login) and saves the story before the correction
  await page.goto(`${base}/stories/${corrected.id}?lang=en`);
  assert.equal(await page.locator('section.notice').count(), 0, 'no notice on a story never corrected');
  await page.getByRole('link', { name: 'Log in', exact: true }).click();
  await page.getByLabel('Your test name').fill('dana');
  await page.getByRole('button', { name: 'Log in (development)' }).click();
  // a first login: the name page, then on to the story
  assert.equal(new URL(page.url()).pathname, '/me/name');
  await page.getByLabel('Display name').fill('Dana');
  await page.getByRole('button', { name: 'Save the name' }).click();
  assert.equal(new URL(page.url()).pathname, `/stories/${corrected.id}`);
  await page.getByRole('button', { name: 'Bookmark this story' }).click();
  assert.equal(await page.locator('.flash.done').innerText(), 'The story is bookmarked.');

  const current = await g.client.get<Json>(`/v1/stories/${corrected.id}`);
  const claims = current.body.claims as { id: string; text: string }[];
  const answer = await g.post<Json>('admin', `/v1/admin/stories/${corrected.id}/correction`, {
    changes: {
      summary: 'The port authority voted to add two evening ferry crossings from June.',
      claims: [{ id: claims[0]!.id, text: claims[0]!.text }, { text: newClaim }],
    },
    note: corrected.note,
  });
  assert.equal(answer.status, 202, JSON.stringify(answer.body));

  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${base}/stories/${corrected.id}?lang=en`);
    const notice = page.locator('section.notice');
    assert.equal(await notice.locator('h2').innerText(), 'This story was corrected');
    const text = await notice.innerText();
    assert.match(text, /What changed: Summary and Claims\./);
    assert.ok(text.includes(corrected.note), 'the public note');
    assert.match(text, /Corrected (now|\d+ seconds? ago) by a content editor\./);
    assert.equal(await notice.locator('time').getAttribute('datetime'), answer.body.createdAt);
    assert.ok(await notice.isVisible());
    const box = await notice.boundingBox();
    assert.ok(box && box.width <= width, 'the notice fits the screen');
    const main = await page.locator('main').innerText();
    assert.ok(!/\bh_|\bacct_|\bbot_/.test(main), 'no raw identity key or bot id in the visible text');
    await passes(`corrected-story-${width}`);
    await noticeHasNoViolation();
  }

  // the versions list: the admin by role, numbered from 1 (newest first)
  const list = page.locator('ol.versions > li');
  assert.deepEqual(await list.evaluateAll((items) => items.map((li) => (li as HTMLLIElement).value)), [2, 1]);
  assert.match(await list.first().innerText(), /by a content editor/);
  assert.match(await list.first().innerText(), /Correction: The crossings start in June/);
  assert.match(await list.last().innerText(), /by author\n/, 'the bot by its name');

  // the diff: the claims by their text, never their ids
  await page.getByRole('link', { name: 'Version 2' }).click();
  await page.waitForURL(/from=1&to=2/);
  const claimsDiff = page.locator('section[aria-labelledby="field-claims"]');
  assert.equal(await claimsDiff.locator('ins').innerText(), newClaim);
  assert.equal(await claimsDiff.locator('del').innerText(), claims[1]!.text);
  const diffText = await page.locator('main').innerText();
  for (const claim of claims) assert.ok(!diffText.includes(claim.id), `no claim id ${claim.id} in the diff`);
  await passes('corrected-versions');

  // German: the notice in the reader's language
  await page.goto(`${base}/stories/${corrected.id}?lang=de`);
  assert.equal(await page.locator('section.notice h2').innerText(), 'Diese Meldung wurde korrigiert');
  assert.match(await page.locator('section.notice').innerText(), /von einem Mitglied der Redaktion/);
  await passes('corrected-story-de');

  // the feed card and My newsroom
  await page.goto(`${base}/?lang=en&mode=recent`);
  const card = page.locator('li.card', { has: page.locator(`a[href^="/stories/${corrected.id}"]`) });
  assert.equal(await card.locator('.badge.CORRECTED').innerText(), 'Corrected');
  await passes('feed-corrected-card');
  await page.goto(`${base}/me?lang=en`);
  const saved = page.locator('section[aria-labelledby="bookmarks"] li', { has: page.locator(`a[href^="/stories/${corrected.id}"]`) });
  assert.match(await saved.innerText(), /corrected since you saved it/);
  await passes('my-newsroom-corrected');
});

test('a retracted story says so plainly, marks its text, and its search card is labelled', { skip }, async () => {
  const { page } = browser;
  const answer = await g.post<Json>('admin', `/v1/admin/stories/${retracted.id}/retraction`, { reason: retracted.reason });
  assert.equal(answer.status, 202, JSON.stringify(answer.body));
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(`${base}/stories/${retracted.id}?lang=en`);
  const notice = page.locator('section.notice.retraction');
  assert.equal(await notice.locator('h2').innerText(), 'This story was retracted');
  const text = await notice.innerText();
  assert.ok(text.includes(retracted.reason), 'the reason');
  assert.match(text, /Retracted (now|\d+ seconds? ago) by a content editor\./);
  assert.equal(await page.locator('.retracted .retracted-label').innerText(), 'Retracted text, kept for the record');
  assert.ok(await page.locator('.retracted .story-body').isVisible(), 'the text the service shows stays readable');
  await passes('retracted-story');
  await noticeHasNoViolation();

  await page.goto(`${base}/search?lang=en&q=Lighthouse`);
  const card = page.locator('li.card', { has: page.locator(`a[href^="/stories/${retracted.id}"]`) });
  assert.equal(await card.locator('.badge.RETRACTED').last().innerText(), 'Retracted');
  await passes('search-retracted-card');
});
