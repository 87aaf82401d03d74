import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { governanceApp, type GovernanceApp } from '../governance/support.js';
import { newsroomClient } from '../helpers/newsroom.js';
import type { Json } from '../helpers/json.js';

/**
 * What the public reads of a correction or retraction: the story's `correction`, the versions' creator kind and
 * notice role, and the cards' `correctedAt` (feed, search, bookmarks).
 */
describe('corrections and retractions in the public reads', () => {
  let g: GovernanceApp;
  let news: ReturnType<typeof newsroomClient>;
  before(async () => {
    g = await governanceApp({ RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '100000' });
    news = newsroomClient(g.t.baseUrl);
  });
  after(() => g.t.close());

  test('a corrected story carries its latest correction; its versions say the admin made version 2', async () => {
    const story = await news.publishedStory();
    const before = await g.client.get<Json>(`/v1/stories/${story.storyId}`);
    assert.equal(before.status, 200);
    assert.equal('correction' in before.body, false, 'no correction field before any correction');

    const note = 'The crossings start in June, not next month.';
    const corrected = await g.post<Json>('admin', `/v1/admin/stories/${story.storyId}/correction`, {
      changes: { summary: 'The port authority voted to add two evening ferry crossings from June.' },
      note,
    });
    assert.equal(corrected.status, 202, JSON.stringify(corrected.body));

    const read = await g.client.get<Json>(`/v1/stories/${story.storyId}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.correction, {
      kind: 'CORRECTION',
      version: 2,
      note,
      createdAt: corrected.body.createdAt,
      createdByRole: 'CONTENT_ADMIN',
    });

    const versions = await g.client.get<Json>(`/v1/stories/${story.storyId}/versions`);
    assert.equal(versions.status, 200);
    const [first, second] = versions.body.versions as [Json, Json];
    assert.equal(first.createdByKind, 'BOT');
    assert.equal(second.createdByKind, 'CONTENT_ADMIN');
    assert.equal(second.createdBy, 'h_admin');
    assert.deepEqual(second.notices, [{ kind: 'CORRECTION', note, createdAt: corrected.body.createdAt, createdByRole: 'CONTENT_ADMIN' }]);

    const feed = await g.client.get<Json>('/v1/feed', { mode: 'recent', limit: '50' });
    const card = (feed.body.items as Json[]).find((c) => c.id === story.storyId);
    assert.ok(card, 'the corrected story is still in the feed');
    assert.equal(card.correctedAt, corrected.body.createdAt);
    const untouched = (feed.body.items as Json[]).find((c) => c.id !== story.storyId);
    if (untouched) assert.equal('correctedAt' in untouched, false, 'a story never corrected has no correctedAt');
  });

  test('a retraction is the latest notice of the story, and its search and bookmark cards carry its time', async () => {
    const story = await news.publishedStory({ title: 'Lighthouse keeper retires after forty years zq7lighthouse' });
    const saved = await g.post<Json>('reader', '/v1/users/me/bookmarks', { storyId: story.storyId });
    assert.ok(saved.status < 300, JSON.stringify(saved.body));
    const reason = 'The keeper named in the story does not exist.';
    const retracted = await g.post<Json>('admin', `/v1/admin/stories/${story.storyId}/retraction`, { reason });
    assert.equal(retracted.status, 202, JSON.stringify(retracted.body));

    const read = await g.client.get<Json>(`/v1/stories/${story.storyId}`);
    assert.equal(read.body.reviewStatus, 'RETRACTED');
    assert.deepEqual(read.body.correction, {
      kind: 'RETRACTION',
      version: 1,
      note: reason,
      createdAt: retracted.body.createdAt,
      createdByRole: 'CONTENT_ADMIN',
    });

    const search = await g.client.get<Json>('/v1/search', { q: 'zq7lighthouse' });
    assert.equal(search.status, 200, JSON.stringify(search.body));
    const found = (search.body.items as Json[]).find((c) => c.id === story.storyId);
    assert.ok(found, 'a retracted story is findable by search');
    assert.equal(found.correctedAt, retracted.body.createdAt);

    const bookmarks = await g.get<Json>('reader', '/v1/users/me/bookmarks');
    assert.equal(bookmarks.status, 200, JSON.stringify(bookmarks.body));
    const item = (bookmarks.body.items as Json[]).find((b) => b.storyId === story.storyId);
    assert.ok(item);
    assert.equal(item.story.correctedAt, retracted.body.createdAt);
    assert.ok(Date.parse(item.story.correctedAt) > Date.parse(item.bookmarkedAt), 'retracted after it was saved');
  });
});
