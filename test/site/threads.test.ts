import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { governanceApp, type GovernanceApp } from '../governance/support.js';
import { newsroomClient } from '../helpers/newsroom.js';
import type { Json } from '../helpers/json.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';

/**
 * Replies, edits, deletions and a changed vote through the site's forms (inject; Chromium plays the same in
 * test/site/threads-browser.test.ts): the forms call the API's services, so the refusals are the API's, worded.
 */
let g: GovernanceApp;
let storyId = '';

before(async () => {
  g = await governanceApp({ HUMAN_PROOF_VERIFIER: 'dev', RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '100000' });
  storyId = (await newsroomClient(g.t.baseUrl).publishedStory({ title: 'Library opens on Sundays' })).storyId;
});

after(async () => {
  await g.t.close();
});

const comments = async () =>
  (
    await g.client.get<{ items: { id: string; parentId: string | null; body: string; deleted: boolean; actorId: string }[] }>(
      `/v1/stories/${storyId}/comments`,
    )
  ).body.items;

test('a reply threads under its parent; only the author edits or deletes; a delete needs its confirmation; the public page moves on', async () => {
  const page = `/stories/${storyId}?lang=en`;
  const root = await g.post<Json>('reader', `/v1/stories/${storyId}/comments`, { body: 'Which branches?' });
  const rootId = root.body.id as string;
  const nora = siteBrowser(g.t.app, '203.0.113.51');
  await nora.devLogin('nora');
  await nora.chooseName('Nora Reader');
  const replied = await nora.submit(page, `/stories/${storyId}/comment`, { body: 'The central one, per the notice.', parentId: rootId });
  assert.equal(flashOf(replied.page.body), 'Your reply is posted.');
  const reply = (await comments()).find((c) => c.parentId === rootId)!;
  assert.equal(reply.body, 'The central one, per the notice.');
  assert.match(replied.page.body, new RegExp(`<li id="comment-${reply.id}" class="comment depth-1">`));

  // someone else's comment: no Edit or Delete on the page, and a crafted post is refused with a sentence
  const rootItem = replied.page.body.slice(
    replied.page.body.indexOf(`id="comment-${rootId}"`),
    replied.page.body.indexOf(`id="comment-${reply.id}"`),
  );
  assert.doesNotMatch(rootItem, /\/edit"|\/delete"/);
  const hijack = await nora.submit(page, `/stories/${storyId}/comments/${rootId}/edit`, { body: 'Mine now' });
  assert.equal(flashOf(hijack.page.body), 'Only the author of a comment can edit or delete it.');
  assert.equal((await comments()).find((c) => c.id === rootId)!.body, 'Which branches?');

  const edited = await nora.submit(page, `/stories/${storyId}/comments/${reply.id}/edit`, { body: 'The central one and the harbour one.' });
  assert.equal(flashOf(edited.page.body), 'Your comment is edited.');
  assert.match(edited.page.body, /The central one and the harbour one\.<\/p>/);
  assert.match((await g.t.app.inject(page)).body, /The central one and the harbour one\./, 'the public page shows the edit');

  // not confirmed (a crafted post): nothing is deleted
  const unconfirmed = await nora.submit(page, `/stories/${storyId}/comments/${reply.id}/delete`, {});
  assert.equal(flashOf(unconfirmed.page.body), null);
  assert.equal((await comments()).find((c) => c.id === reply.id)!.deleted, false);

  const deleted = await nora.submit(page, `/stories/${storyId}/comments/${reply.id}/delete`, { confirm: '1' });
  assert.equal(flashOf(deleted.page.body), 'Your comment is deleted.');
  const publicPage = (await g.t.app.inject(page)).body;
  assert.doesNotMatch(publicPage, /harbour one/, 'the text is gone from the public page');
  assert.match(publicPage, /Comment deleted/);
  assert.match(publicPage, /<h2 id="comments">1 comment<\/h2>/);
});

test('a changed vote through the site: the other direction, one vote, the weight kept', async () => {
  const page = `/stories/${storyId}?lang=en`;
  const omar = siteBrowser(g.t.app, '203.0.113.52');
  await omar.devLogin('omar');
  const none = await omar.submit(page, `/stories/${storyId}/vote/change`, { vote: 'DOWN' });
  assert.equal(flashOf(none.page.body), 'You have not voted on this story yet: there is no vote to change.');
  await omar.submit(page, `/stories/${storyId}/vote`, { vote: 'UP', prove: '1' });
  const changed = await omar.submit(page, `/stories/${storyId}/vote/change`, { vote: 'DOWN' });
  assert.equal(flashOf(changed.page.body), 'Your vote is changed: weight 3.');
  assert.match(changed.page.body, /You voted “Do not reward” · weight 3/);
});
