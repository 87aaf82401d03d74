import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { governanceApp, type GovernanceApp } from '../governance/support.js';
import { newsroomClient } from '../helpers/newsroom.js';
import type { Json } from '../helpers/json.js';
import { checkPage, needsChromium, openBrowser, type Browser } from './browser.js';

/**
 * What a reader did leaves a trace they can see, in a real browser (Debian's Chromium through playwright-core) at
 * a phone's (390 px) and a desktop's (1280 px) width: the story page shows "Bookmarked" and "Following" with the
 * way back (which works), the reader's vote and its weight instead of the vote form, "You flagged this" instead of
 * the flag form; a blank comment is refused with a sentence and nothing is posted; a logged-in reader's footer
 * is theirs; clearing the history asks first, on a page that says what goes; "My activity" lists the comments
 * (linked to their stories), the votes with their weight and the flags with what became of them after a
 * content admin's correction. Every page passes checkPage (axe-core among its checks).
 */
const skip = needsChromium();
let g: GovernanceApp;
let base: string;
let browser: Browser;
let storyId = '';
const note = 'The turnout was 61 percent, not 71; the first claim is corrected.';

before(async () => {
  if (skip) return;
  g = await governanceApp({ HUMAN_PROOF_VERIFIER: 'dev', RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '100000' });
  storyId = (await newsroomClient(g.t.baseUrl).publishedStory({ title: 'Turnout in the harbour district vote' })).storyId;
  base = g.t.baseUrl;
  browser = await openBrowser({ width: 390, height: 900 });
});

after(async () => {
  if (skip) return;
  await browser.close();
  await g.t.close();
});

/** The page at both widths passes checkPage; the browser stays at the phone's width. */
async function passesAtBothWidths(name: string) {
  for (const width of [1280, 390]) {
    await browser.page.setViewportSize({ width, height: 900 });
    assert.deepEqual(await checkPage(browser, `${name}-${width}`), [], `page ${name} at ${width} px`);
  }
}

const flash = () => browser.page.locator('.flash').innerText();
const actions = () => browser.page.locator('section.actions');
const footer = () => browser.page.locator('footer').innerText();

async function commentCount(): Promise<number> {
  const list = await g.client.get<{ items: unknown[] }>(`/v1/stories/${storyId}/comments`);
  return list.body.items.length;
}

test('the API refuses a comment of white space alone with 400 VALIDATION_FAILED, and posts nothing', { skip }, async () => {
  const before = await commentCount();
  const refused = await g.post<Json>('reader', `/v1/stories/${storyId}/comments`, { body: ' \n\t\u00a0 ' });
  assert.equal(refused.status, 400, JSON.stringify(refused.body));
  assert.equal(refused.body.code, 'VALIDATION_FAILED');
  assert.deepEqual(
    (refused.body.details as { path: string }[]).map((d) => d.path),
    ['/body'],
  );
  assert.equal(await commentCount(), before);
});

test('a reader sees on the page what they did, undoes it, and finds it all in My activity', { skip }, async () => {
  const { page } = browser;
  const story = `${base}/stories/${storyId}?lang=en`;
  await page.goto(story);
  assert.match(await footer(), /A read-only view of the newsroom/);
  assert.ok(await actions().getByRole('link', { name: 'Log in to comment, vote, flag or bookmark this story.' }).isVisible());
  assert.equal(await actions().getByText('Bookmarked').count(), 0, 'a logged-out reader sees no state');
  await passesAtBothWidths('traces-story-logged-out');

  await page.getByRole('link', { name: 'Log in', exact: true }).click();
  await page.getByLabel('Your test name').fill('erin');
  await page.getByRole('button', { name: 'Log in (development)' }).click();
  // a first login: the name page, then on to the story
  assert.equal(new URL(page.url()).pathname, '/me/name');
  await page.getByLabel('Display name').fill('Erin');
  await page.getByRole('button', { name: 'Save the name' }).click();
  assert.equal(new URL(page.url()).pathname, `/stories/${storyId}`);
  assert.doesNotMatch(await footer(), /read-only/);
  assert.match(await footer(), /You are logged in/);
  await passesAtBothWidths('traces-story-logged-in');

  // a blank comment: a sentence, nothing posted
  const comments = await commentCount();
  await page.getByLabel('Your comment').fill('    ');
  await page.getByRole('button', { name: 'Post the comment' }).click();
  assert.equal(await flash(), 'Your comment holds only spaces: nothing was posted. Write something first.');
  assert.equal(await page.locator('.flash').getAttribute('role'), 'alert');
  assert.equal(await commentCount(), comments);
  await page.getByLabel('Your comment').fill('The district office published the count this morning.');
  await page.getByRole('button', { name: 'Post the comment' }).click();
  assert.equal(await flash(), 'Your comment is posted.');

  // the vote: its weight instead of the form
  await page.getByLabel('Prove that I am a unique person, so that my vote counts in full').first().check();
  await page.getByRole('button', { name: 'Reward', exact: true }).click();
  assert.equal(await flash(), 'Your vote is recorded with weight 3.');
  assert.equal(await actions().locator('#my-vote strong').innerText(), 'You voted “Reward” · weight 3');
  assert.equal(await page.getByRole('button', { name: 'Reward', exact: true }).count(), 0, 'no vote form once voted');

  // the flag: "You flagged this" instead of the form (another flag stays possible, folded)
  await page.getByLabel('Severity').selectOption('MEDIUM');
  await page.getByLabel('What is wrong').fill('The turnout figure differs from the district office.');
  await page.getByRole('button', { name: 'Send the flag' }).click();
  assert.equal(await flash(), 'Your flag is recorded.');
  assert.ok(await actions().getByText('You flagged this').isVisible());
  assert.equal(await page.getByRole('button', { name: 'Send the flag' }).isVisible(), false, 'the flag form is folded away');
  assert.ok(await page.getByText('Flag something else in this story').isVisible());

  // bookmark and follow show their state, and the way back works
  await page.getByRole('button', { name: 'Bookmark this story' }).click();
  assert.equal(await flash(), 'The story is bookmarked.');
  assert.ok(await actions().getByText('Bookmarked', { exact: true }).isVisible());
  assert.equal(await page.getByRole('button', { name: 'Bookmark this story' }).count(), 0);
  const follow = page.getByRole('button', { name: /^Follow the room / });
  const room = (await follow.innerText()).replace('Follow the room ', '');
  await follow.click();
  assert.equal(await flash(), `You follow ${room}.`);
  assert.ok(await actions().getByText(`Following ${room}`).isVisible());
  await passesAtBothWidths('traces-story-state');

  await actions().getByRole('button', { name: 'Remove', exact: true }).click();
  assert.equal(await flash(), 'The bookmark is removed.');
  assert.ok(await page.getByRole('button', { name: 'Bookmark this story' }).isVisible());
  const saved = await g.t.app.ctx.database.db.selectFrom('user_bookmarks').select('actor_id').where('story_id', '=', storyId).execute();
  assert.equal(saved.length, 0, 'the bookmark is gone from the service');
  await actions().getByRole('button', { name: 'Unfollow', exact: true }).click();
  assert.equal(await flash(), `You no longer follow ${room}.`);
  assert.ok(await page.getByRole('button', { name: `Follow the room ${room}` }).isVisible());

  // a content admin corrects the story: My activity tells what became of the flag
  const current = await g.client.get<Json>(`/v1/stories/${storyId}`);
  const claims = current.body.claims as { id: string; text: string }[];
  const corrected = await g.post<Json>('admin', `/v1/admin/stories/${storyId}/correction`, {
    changes: { claims: [{ id: claims[0]!.id, text: 'Turnout was 61 percent.' }, ...claims.slice(1)] },
    note,
  });
  assert.equal(corrected.status, 202, JSON.stringify(corrected.body));

  await page.getByRole('link', { name: 'My activity', exact: true }).click();
  assert.equal(new URL(page.url()).pathname, '/me/activity');
  const mine = (id: string) => page.locator(`section[aria-labelledby="${id}"]`);
  assert.equal(
    await mine('my-comments').locator(`a[href^="/stories/${storyId}"]`).first().innerText(),
    'Turnout in the harbour district vote',
  );
  assert.ok(await mine('my-comments').getByText('The district office published the count this morning.').isVisible());
  assert.match(await mine('my-votes').innerText(), /“Reward” · weight 3/);
  const flagText = await mine('my-flags').innerText();
  assert.match(flagText, /The turnout figure differs from the district office\./);
  assert.ok(flagText.includes(`The story was corrected since: ${note}`), flagText);
  await passesAtBothWidths('traces-activity');
  await page.goto(`${base}/me/activity?lang=de`);
  assert.match(await mine('my-flags').innerText(), /Die Meldung wurde seitdem korrigiert/);
  await passesAtBothWidths('traces-activity-de');

  // clearing the history asks first, on its own page
  await page.goto(`${base}/me?lang=en`);
  await page.getByRole('link', { name: 'Clear the history…' }).click();
  assert.equal(new URL(page.url()).pathname, '/me/history/clear');
  assert.equal(await page.locator('h1').innerText(), 'Clear your reading history?');
  assert.match(await page.locator('main').innerText(), /Your reading history holds \d+ stor(y|ies)\./);
  assert.match(await page.locator('main').innerText(), /Your bookmarks, the rooms and topics you follow/);
  await passesAtBothWidths('traces-history-confirm');
  await page.getByRole('link', { name: 'No, keep it' }).click();
  assert.equal(new URL(page.url()).pathname, '/me');
  assert.equal(await page.locator('.flash').count(), 0, 'nothing was cleared');
  await page.getByRole('link', { name: 'Clear the history…' }).click();
  await page.getByRole('button', { name: 'Yes, clear my reading history' }).click();
  assert.equal(new URL(page.url()).pathname, '/me');
  assert.equal(await flash(), 'Your reading history is cleared.');

  // logged out again: the plain story page
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.goto(story);
  assert.equal(await actions().getByText('You flagged this').count(), 0);
  assert.match(await footer(), /A read-only view of the newsroom/);
});
