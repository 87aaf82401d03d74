import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { governanceApp, type GovernanceApp } from '../governance/support.js';
import { newsroomClient } from '../helpers/newsroom.js';
import type { Json } from '../helpers/json.js';
import { checkPage, needsChromium, openBrowser, type Browser } from './browser.js';

/**
 * Threads and second thoughts on the story page, in a real browser (Debian's Chromium through playwright-core) at
 * a phone's (390 px) and a desktop's (1280 px) width, without any script needed: "Reply" opens a small form under
 * a comment and the reply is indented under it (a deep thread stops indenting at the fourth level), a thread
 * folds away, each comment has its own link; the author edits their comment (shown "edited") and deletes it
 * after a step that says what happens (a "Comment deleted" marker stays, the replies keep their place); a reader
 * changes their reward vote in two clicks. Every page passes checkPage (axe-core among its checks).
 */
const skip = needsChromium();
let g: GovernanceApp;
let base: string;
let browser: Browser;
let storyId = '';

before(async () => {
  if (skip) return;
  g = await governanceApp({ HUMAN_PROOF_VERIFIER: 'dev', RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '100000' });
  storyId = (await newsroomClient(g.t.baseUrl).publishedStory({ title: 'Night ferries return to the harbour' })).storyId;
  base = g.t.baseUrl;
  browser = await openBrowser({ width: 390, height: 900 });
});

after(async () => {
  if (skip) return;
  await browser.close();
  await g.t.close();
});

async function passesAtBothWidths(name: string) {
  for (const width of [1280, 390]) {
    await browser.page.setViewportSize({ width, height: 900 });
    assert.deepEqual(await checkPage(browser, `${name}-${width}`), [], `page ${name} at ${width} px`);
  }
}

const flash = () => browser.page.locator('.flash').innerText();

async function comment(body: string, parentId?: string): Promise<string> {
  const posted = await g.post<Json>('reader', `/v1/stories/${storyId}/comments`, { body, ...(parentId ? { parentId } : {}) });
  assert.equal(posted.status, 202, JSON.stringify(posted.body));
  return posted.body.id as string;
}

test('replies thread under their parent; the author edits and deletes; a vote changes in two clicks', { skip }, async () => {
  const { page } = browser;
  // another reader's thread, six levels deep
  const root = await comment('Do the night ferries run on Sundays?');
  let parent = root;
  const chain: string[] = [];
  for (let level = 1; level <= 5; level++) {
    parent = await comment(`Level ${level} answer`, parent);
    chain.push(parent);
  }

  await page.goto(`${base}/stories/${storyId}?lang=en`);
  const item = (id: string) => page.locator(`li#comment-${id}`);
  assert.equal(await item(root).getAttribute('class'), 'comment depth-0');
  assert.deepEqual(
    await Promise.all(chain.map(async (id) => item(id).getAttribute('class'))),
    ['comment depth-1', 'comment depth-2', 'comment depth-3', 'comment depth-4', 'comment depth-4'],
    'replies indent up to the fourth level, deeper ones stay there',
  );
  assert.equal(await item(chain[4]!).locator('xpath=..').locator('xpath=..').getAttribute('id'), `comment-${chain[2]}`);
  assert.equal(await item(root).getByRole('link', { name: 'Link to this comment' }).first().getAttribute('href'), `#comment-${root}`);
  assert.equal(await page.getByText('Reply', { exact: true }).count(), 0, 'no reply form before logging in');
  await passesAtBothWidths('threads-story-logged-out');

  // the thread folds away
  const fold = item(root).locator('details.thread-replies > summary').first();
  assert.equal(await fold.innerText(), '5 replies');
  await fold.click();
  assert.equal(await page.getByText('Level 1 answer').isVisible(), false);
  await fold.click();
  assert.equal(await page.getByText('Level 1 answer').isVisible(), true);

  await page.getByRole('link', { name: 'Log in', exact: true }).click();
  await page.getByLabel('Your test name').fill('iris');
  await page.getByRole('button', { name: 'Log in (development)' }).click();
  // a first login: the name page, then on to the story
  assert.equal(new URL(page.url()).pathname, '/me/name');
  await page.getByLabel('Display name').fill('Iris');
  await page.locator('form[action="/me/name"] button[type="submit"]').click();
  assert.equal(new URL(page.url()).pathname, `/stories/${storyId}`);

  // Reply: a small form under the comment, back at the comment afterwards, the reply indented under it
  await item(root).locator('summary', { hasText: 'Reply' }).first().click();
  await item(root).getByLabel('Your reply', { exact: true }).first().fill('Yes, since March: the timetable says so.');
  await passesAtBothWidths('threads-reply-form');
  await item(root).getByRole('button', { name: 'Post the reply' }).first().click();
  assert.equal(await flash(), 'Your reply is posted.');
  assert.equal(new URL(page.url()).hash, `#comment-${root}`);
  const list = await g.client.get<{ items: { id: string; parentId: string | null; body: string; deleted: boolean }[] }>(
    `/v1/stories/${storyId}/comments`,
  );
  const mine = list.body.items.find((c) => c.body.startsWith('Yes, since March'))!;
  assert.equal(mine.parentId, root);
  assert.equal(await item(mine.id).getAttribute('class'), 'comment depth-1');
  assert.equal(await item(root).locator('details.thread-replies > summary').first().innerText(), '6 replies');

  // Edit and Delete on my own comment only
  assert.equal(await item(root).locator(':scope > .comment-tools summary', { hasText: 'Edit' }).count(), 0, "not on someone else's");
  await item(mine.id).locator('summary', { hasText: 'Edit' }).click();
  await item(mine.id).getByLabel('New text', { exact: true }).fill('Yes, since March; the timetable (page 2) says so.');
  await item(mine.id).getByRole('button', { name: 'Save the new text' }).click();
  assert.equal(await flash(), 'Your comment is edited.');
  assert.equal(await item(mine.id).locator('.comment-body').innerText(), 'Yes, since March; the timetable (page 2) says so.');
  assert.match(await item(mine.id).locator('p.meta').first().innerText(), /· edited ·/);

  // someone replies to mine; then I delete it: the confirmation says what happens, a marker stays
  const answer = await comment('Thanks, found it.', mine.id);
  await page.reload();
  await item(mine.id).locator('summary', { hasText: 'Delete' }).click();
  assert.match(await item(mine.id).locator('details.comment-tool[open]').innerText(), /removes your text for everyone, for good/);
  await passesAtBothWidths('threads-delete-confirm');
  await item(mine.id).getByRole('button', { name: 'Yes, delete this comment' }).click();
  assert.equal(await flash(), 'Your comment is deleted.');
  assert.match(await item(mine.id).locator('p.meta').first().innerText(), /^Comment deleted/);
  assert.equal(await page.getByText('Yes, since March').count(), 0, 'the text is gone from the page');
  assert.equal(await item(mine.id).locator(`li#comment-${answer}`).count(), 1, 'the reply keeps its place under the marker');
  const after = await g.client.get<{ items: { id: string; body: string; deleted: boolean }[] }>(`/v1/stories/${storyId}/comments`);
  assert.deepEqual(
    after.body.items.filter((c) => c.id === mine.id).map((c) => [c.deleted, c.body]),
    [[true, '']],
  );
  await passesAtBothWidths('threads-deleted');

  // the vote: "Change" next to it, then the other direction (two clicks), still one vote
  await page.getByLabel('Prove that I am a unique person, so that my vote counts in full').first().check();
  await page.getByRole('button', { name: 'Reward', exact: true }).click();
  assert.equal(await flash(), 'Your vote is recorded with weight 3.');
  await page.locator('#my-vote summary', { hasText: 'Change' }).click();
  await passesAtBothWidths('threads-vote-change');
  await page.locator('#my-vote').getByRole('button', { name: 'Do not reward' }).click();
  assert.equal(await flash(), 'Your vote is changed: weight 3.');
  assert.equal(await page.locator('#my-vote strong').innerText(), 'You voted “Do not reward” · weight 3');
  assert.match(await page.locator('#my-vote .meta').first().innerText(), /changed/);
  const votes = await g.t.app.ctx.database.db.selectFrom('reward_votes').select('vote').where('story_id', '=', storyId).execute();
  assert.deepEqual(
    votes.map((v) => v.vote),
    ['DOWN'],
  );

  // the same page in German: the new words are there
  await page.goto(`${base}/stories/${storyId}?lang=de`);
  assert.match(await item(mine.id).locator('p.meta').first().innerText(), /^Kommentar gelöscht/);
  assert.ok(await page.locator('#my-vote summary', { hasText: 'Ändern' }).isVisible());
  await passesAtBothWidths('threads-de');
});
