import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { governanceApp, type GovernanceApp } from '../governance/support.js';
import { newsroomClient } from '../helpers/newsroom.js';
import type { Json } from '../helpers/json.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';

/**
 * "My activity" and the story page's traces through inject (Chromium plays the same in
 * test/site/traces-browser.test.ts): the reader's own vote and flags replace the forms on their page only; each
 * flag says what a content editor did to the story after it (a correction with its note, a retraction with its
 * reason, else pending: a flag filed after the correction is pending); another reader sees none of it.
 */
let g: GovernanceApp;
const stories = { corrected: '', retracted: '', untouched: '' };
const correctionNote = 'The bridge reopens on Friday, not Thursday.';
const retractionReason = 'The quoted engineer does not work for the city.';

before(async () => {
  g = await governanceApp({ HUMAN_PROOF_VERIFIER: 'dev', RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '100000' });
  const news = newsroomClient(g.t.baseUrl);
  stories.corrected = (await news.publishedStory({ title: 'Bridge reopens after repairs' })).storyId;
  stories.retracted = (await news.publishedStory({ title: 'City engineer warns of cracks' })).storyId;
  stories.untouched = (await news.publishedStory({ title: 'Market hall gets a new roof' })).storyId;
});

after(async () => {
  await g.t.close();
});

/** The list items of one section of a page, as text (tags dropped). */
function itemsOf(body: string, section: string): string[] {
  const start = body.indexOf(`<section aria-labelledby="${section}">`);
  assert.ok(start >= 0, `section ${section}`);
  const html = body.slice(start, body.indexOf('</section>', start));
  return [...html.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, '').replace(/\s+/g, ' '));
}

test("a reader's vote and flags replace the forms on their story page, and My activity tells what became of each flag", async () => {
  const alice = siteBrowser(g.t.app, '203.0.113.31');
  await alice.devLogin('alice');
  await alice.chooseName('Alice');
  const page = (id: string) => `/stories/${id}?lang=en`;
  const flag = (id: string, reason: string, claimId = '') =>
    alice.submit(page(id), `/stories/${id}/flag`, { severity: claimId ? 'MEDIUM' : 'LOW', claimId, reason });

  assert.equal(flashOf((await flag(stories.corrected, 'The reopening date is wrong.')).page.body), 'Your flag is recorded.');
  await flag(stories.retracted, 'Nobody by that name works for the city.');
  await flag(stories.untouched, 'The roof is not new, only repaired.');
  const voted = await alice.submit(page(stories.corrected), `/stories/${stories.corrected}/vote`, { vote: 'DOWN' });
  assert.equal(flashOf(voted.page.body), 'Your vote is recorded with weight 1.');
  const blank = await alice.submit(page(stories.corrected), `/stories/${stories.corrected}/comment`, { body: ' \u3000 ' });
  assert.equal(flashOf(blank.page.body), 'Your comment holds only spaces: nothing was posted. Write something first.');
  await alice.submit(page(stories.corrected), `/stories/${stories.corrected}/comment`, { body: 'Friday, says the city.' });

  const mine = (await alice.get(page(stories.corrected))).body;
  assert.match(mine, /You voted “Do not reward” · weight 1/);
  assert.doesNotMatch(mine, new RegExp(`action="/stories/${stories.corrected}/vote"`), 'no vote form once voted');
  assert.match(mine, new RegExp(`action="/stories/${stories.corrected}/vote/change"`), 'the change of mind instead');
  assert.match(mine, /You flagged this/);
  const anonymous = (await g.t.app.inject(page(stories.corrected))).body;
  assert.doesNotMatch(anonymous, /You voted|You flagged this|Bookmarked/);
  assert.match(anonymous, /A read-only view of the newsroom/);
  assert.doesNotMatch(mine, /A read-only view of the newsroom/);

  const current = await g.client.get<Json>(`/v1/stories/${stories.corrected}`);
  const claims = current.body.claims as { id: string; text: string }[];
  const corrected = await g.post<Json>('admin', `/v1/admin/stories/${stories.corrected}/correction`, {
    changes: { summary: 'The bridge reopens on Friday after three months of repairs.' },
    note: correctionNote,
  });
  assert.equal(corrected.status, 202, JSON.stringify(corrected.body));
  const retracted = await g.post<Json>('admin', `/v1/admin/stories/${stories.retracted}/retraction`, { reason: retractionReason });
  assert.equal(retracted.status, 202, JSON.stringify(retracted.body));
  // a flag filed after the correction: nothing happened since
  await flag(stories.corrected, 'The second claim still names Thursday.', claims[0]!.id);

  const activity = await alice.get('/me/activity?lang=en');
  assert.equal(activity.statusCode, 200);
  assert.equal(activity.headers['cache-control'], 'private, no-store');
  const flags = itemsOf(activity.body, 'my-flags');
  assert.equal(flags.length, 4, flags.join('\n'));
  const about = (reason: string) => flags.find((f) => f.includes(reason)) ?? assert.fail(`no flag "${reason}" in ${flags.join('\n')}`);
  assert.ok(about('The reopening date is wrong.').includes(`The story was corrected since: ${correctionNote}`));
  assert.ok(about('Nobody by that name works for the city.').includes(`The story was retracted since: ${retractionReason}`));
  assert.ok(about('The roof is not new, only repaired.').includes('Pending: no editor has corrected or retracted the story since.'));
  assert.ok(about('The second claim still names Thursday.').includes('Pending'));
  assert.ok(flags[0]!.includes('The second claim still names Thursday.'), 'newest first');
  assert.deepEqual(itemsOf(activity.body, 'my-votes').length, 1);
  assert.match(itemsOf(activity.body, 'my-votes')[0]!, /Bridge reopens after repairs.*“Do not reward” · weight 1/);
  const comments = itemsOf(activity.body, 'my-comments');
  assert.equal(comments.length, 1, 'the blank comment was not posted');
  assert.match(activity.body, new RegExp(`href="/stories/${stories.corrected}\\?lang=en#comment-cm_`));

  const bob = siteBrowser(g.t.app, '203.0.113.32');
  await bob.devLogin('bob');
  const his = await bob.get('/me/activity?lang=en');
  assert.doesNotMatch(his.body, /The reopening date is wrong|Friday, says the city/);
  assert.match(his.body, /You have not flagged anything yet\./);
  assert.equal((await g.t.app.inject('/me/activity?lang=en')).statusCode, 303, 'logged out: the login page');
});
