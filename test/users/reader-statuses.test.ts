import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createServiceClient, signHumanRequest } from '../../sdk/index.js';
import { TOPICS_PER_READER } from '../../src/readers/users/topic-schemas.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../helpers/app.js';
import { newsroomClient } from '../helpers/newsroom.js';
import type { Json } from '../helpers/json.js';
import { readerAs } from './reader-helpers.js';

const READER_ROUTES: [string, string][] = [
  ['get', '/v1/users/me/bookmarks'],
  ['post', '/v1/users/me/bookmarks'],
  ['delete', '/v1/users/me/bookmarks/{storyId}'],
  ['get', '/v1/users/me/topics'],
  ['post', '/v1/users/me/topics'],
  ['delete', '/v1/users/me/topics/{topic}'],
  ['get', '/v1/users/me/export'],
  ['post', '/v1/users/me/history/clear'],
];

describe('reader account routes: the statuses of docs/reader-accounts.md', () => {
  let t: TestApp;
  let newsroom: ReturnType<typeof newsroomClient>;
  let storyId: string;

  before(async () => {
    t = await createTestApp();
    newsroom = newsroomClient(await t.listen());
    storyId = (await newsroom.publishedStory()).storyId;
  });
  after(() => t.close());

  test('the eight routes are in /openapi.json with the statuses of the table', async () => {
    const doc = (await newsroom.client.get<Json>('/openapi.json')).body;
    for (const [method, path] of READER_ROUTES) {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `${method} ${path} is documented`);
      const statuses = Object.keys(op.responses);
      const success = method === 'get' || method === 'delete' ? '200' : '202';
      for (const status of [success, '400', '401', '409', '503']) assert.ok(statuses.includes(status), `${method} ${path} ${status}`);
    }
    assert.ok(Object.keys(doc.paths['/v1/users/me/bookmarks'].post.responses).includes('404'));
    assert.ok(doc.paths['/v1/users/me/export'].get.responses['200'].content['application/json'].schema);
  });

  test('a bookmark of a story that is missing, a candidate or hidden by moderation is 404', async () => {
    const reader = readerAs(newsroom.client, 'reader-404');
    const missing = await reader.bookmark('st_does_not_exist');
    assert.deepEqual([missing.status, missing.body.code], [404, 'NOT_FOUND']);
    const author = await newsroom.joinBot('candidate-author');
    const candidate = await newsroom.submit(author);
    assert.equal((await reader.bookmark(candidate.storyId)).status, 404);
    const hidden = (await newsroom.publishedStory()).storyId;
    await t.db.database.db.updateTable('stories').set({ moderation_status: 'QUARANTINED' }).where('id', '=', hidden).execute();
    assert.equal((await reader.bookmark(hidden)).status, 404);
    assert.deepEqual((await reader.bookmarks()).body.items, []);
  });

  test('a bookmarked story hidden later stays bookmarked, with its card withheld', async () => {
    const reader = readerAs(newsroom.client, 'reader-hidden-later');
    const id = (await newsroom.publishedStory()).storyId;
    assert.equal((await reader.bookmark(id)).status, 202);
    await t.db.database.db.updateTable('stories').set({ moderation_status: 'BLOCKED' }).where('id', '=', id).execute();
    const items = (await reader.bookmarks()).body.items;
    assert.deepEqual(
      items.map((b: Json) => [b.storyId, b.story]),
      [[id, null]],
    );
  });

  test('bad input is 400 with the error body: unknown properties, a bad topic, a bad story id, a tampered cursor', async () => {
    const reader = readerAs(newsroom.client, 'reader-400');
    const extra = await reader.write('/v1/users/me/bookmarks', { storyId, note: 'x' });
    assert.deepEqual([extra.status, extra.body.code], [400, 'VALIDATION_FAILED']);
    assert.equal((await reader.write('/v1/users/me/history/clear', { all: true })).status, 400);
    assert.equal((await reader.follow('   ')).status, 400);
    assert.equal((await reader.follow('two words', 'ROOM')).status, 400);
    assert.equal((await reader.follow('x'.repeat(101))).status, 400);
    assert.equal((await reader.write('/v1/users/me/topics', { topic: 'ok', kind: 'PERSON' })).status, 400);
    assert.equal((await reader.bookmark('not a story id')).status, 400);
    const cursor = await reader.bookmarks({ cursor: 'abc.def' });
    assert.deepEqual([cursor.status, cursor.body.code], [400, 'INVALID_CURSOR']);
    const limit = await reader.bookmarks({ limit: '0' });
    assert.equal(limit.status, 400);
    const verified = await newsroom.client.humanRead<Json>(TEST_SECRET, '/v1/users/me/export', { actorId: 'reader-400', verified: 'yes' });
    assert.equal(verified.status, 400);
  });

  test('unsigned, badly signed or forged requests are 401; a replay is 409; an unbound linkedHumanId is 403', async () => {
    const { client } = newsroom;
    assert.equal((await client.get('/v1/users/me/bookmarks', { actorId: 'reader-x', verified: 'false' })).status, 401);
    const wrongSecret = await client.humanRead<Json>('not-the-secret', '/v1/users/me/export', { actorId: 'reader-x', verified: 'false' });
    assert.deepEqual([wrongSecret.status, wrongSecret.body.code], [401, 'SIGNATURE_INVALID']);
    const body = { actorId: 'reader-x', verified: false, topic: 'replayed' };
    const headers = signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: '/v1/users/me/topics', body });
    const send = () =>
      fetch(`${t.baseUrl}/v1/users/me/topics`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    assert.equal((await send()).status, 202);
    const replay = await send();
    assert.equal(replay.status, 409);
    assert.equal(((await replay.json()) as Json).code, 'REPLAY_DETECTED');
    // the signed body names the actor: changing it breaks the signature
    const forged = await fetch(`${t.baseUrl}/v1/users/me/topics`, {
      method: 'POST',
      headers: {
        ...signHumanRequest({ secret: TEST_SECRET, method: 'POST', path: '/v1/users/me/topics', body }),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ ...body, actorId: 'reader-victim' }),
    });
    assert.equal(forged.status, 401);
    const unbound = await readerAs(client, 'reader-x', { verified: true, linkedHumanId: 'h_someone_else' }).export();
    assert.deepEqual([unbound.status, unbound.body.code], [403, 'LINKED_HUMAN_NOT_BOUND']);
  });

  test('a signed feed or story read that fails its signature is refused, never served as public', async () => {
    const { client } = newsroom;
    const unsigned = await client.get<Json>('/v1/feed', { actorId: 'reader-x', verified: 'false' });
    assert.deepEqual([unsigned.status, unsigned.body.code], [401, 'SIGNATURE_INVALID']);
    const forged = await client.humanRead<Json>('not-the-secret', `/v1/stories/${storyId}`, { actorId: 'reader-x', verified: 'false' });
    assert.equal(forged.status, 401);
  });

  test('a reader may follow a bounded number of topics; past it 409 TOPIC_LIMIT_REACHED', async () => {
    const reader = readerAs(newsroom.client, 'reader-many-topics');
    // arrange: one short of the bound, written straight to the table
    const rows = Array.from({ length: TOPICS_PER_READER - 1 }, (_, i) => ({
      actor_id: reader.actorId,
      topic: `topic ${i}`,
      kind: 'TAG' as const,
      label: `Topic ${i}`,
      created_at: new Date(),
    }));
    await t.db.database.db.insertInto('user_topics').values(rows).execute();
    assert.equal((await reader.follow('the last one')).status, 202);
    const over = await reader.follow('one too many');
    assert.deepEqual([over.status, over.body.code], [409, 'TOPIC_LIMIT_REACHED']);
    assert.ok(over.body.nextAction);
    // following a topic already followed is no new follow: still fine at the bound
    assert.deepEqual([(await reader.follow('TOPIC 7')).status, (await reader.follow('TOPIC 7')).body.created], [202, false]);
    assert.equal((await reader.topics()).body.items.length, TOPICS_PER_READER);
    assert.equal((await reader.unfollow('topic 7')).body.removed, true);
    // any text is a topic, path separators and percent signs included
    assert.equal((await reader.follow('AC/DC 100%')).body.topic, 'ac/dc 100%');
    assert.deepEqual([(await reader.unfollow('ac/dc 100%')).body.removed], [true]);
    assert.equal((await reader.follow('one too many')).status, 202);
  });

  test('the public story and feed reads keep their cache; a signed read neither uses nor fills it', async () => {
    const { client } = newsroom;
    const reader = readerAs(client, 'reader-cache');
    await reader.preferences({ personalization: true });
    const path = `/v1/stories/${storyId}`;
    await client.get(path);
    const hit = await client.get<Json>(path);
    assert.equal(hit.headers.get('x-read-cache'), 'hit');
    const signed = await reader.readStory(storyId);
    assert.equal(signed.status, 200);
    assert.equal(signed.headers.get('x-read-cache'), null);
    const stillHit = await client.get<Json>(path);
    assert.equal(stillHit.headers.get('x-read-cache'), 'hit', 'a reader write (history) does not empty the public cache');
    assert.deepEqual(stillHit.body, hit.body);
    // reader writes leave the public cache alone too
    await client.get('/v1/feed');
    assert.equal((await reader.bookmark(storyId)).status, 202);
    assert.equal((await reader.follow('ferry')).status, 202);
    assert.equal((await client.get<Json>('/v1/feed')).headers.get('x-read-cache'), 'hit');
    const personal = await reader.feed();
    assert.equal(personal.body.personalized, true);
    assert.equal(personal.headers.get('cache-control'), 'private, no-store');
    assert.equal((await client.get<Json>('/v1/feed')).body.personalized, undefined);
  });

  test('tags of any text rank the feed without failing it: punctuation only, quotes, operators, phrases', async () => {
    const reader = readerAs(newsroom.client, 'reader-odd-tags');
    for (const tag of ['!!!', "it's", 'a & b | !c', '<->', '\\', 'evening crossings', '"ferry"']) {
      assert.equal((await reader.follow(tag)).status, 202, tag);
    }
    const feed = await reader.feed();
    assert.equal(feed.status, 200, JSON.stringify(feed.body));
    // the default packet's claims speak of "evening crossings": its stories are followed ones, so they come first
    const first = feed.body.items[0] as Json;
    assert.match(`${first.title} ${first.summary}`, /ferry|evening/i);
  });

  test('a cursor of the personalized feed pages through it without repeats, and is refused by the public feed', async () => {
    const reader = readerAs(newsroom.client, 'reader-pages');
    await reader.follow('world', 'ROOM');
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await reader.feed({ limit: '1', ...(cursor ? { cursor } : {}) });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      seen.push(...page.body.items.map((s: Json) => s.id));
      cursor = page.body.nextCursor;
      if (cursor && seen.length === 1) {
        const wrong = await newsroom.client.get<Json>('/v1/feed', { cursor });
        assert.deepEqual([wrong.status, wrong.body.code], [400, 'INVALID_CURSOR']);
      }
    } while (cursor);
    const all = (await reader.feed({ limit: '50' })).body.items.map((s: Json) => s.id);
    assert.deepEqual(seen, all);
    assert.equal(new Set(seen).size, seen.length);
  });
});

describe('reader account routes without a signing secret', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ HUMAN_SIGNING_SECRET: '' });
  });
  after(() => t.close());

  test('every reader route answers 503 SIGNING_SECRET_UNAVAILABLE; the public feed still works', async () => {
    const client = createServiceClient({ baseUrl: await t.listen() });
    const reader = readerAs(client, 'reader-503');
    for (const res of [
      await reader.bookmarks(),
      await reader.bookmark('st_x'),
      await reader.unbookmark('st_x'),
      await reader.topics(),
      await reader.follow('x'),
      await reader.unfollow('x'),
      await reader.export(),
      await reader.clearHistory(),
      await reader.feed(),
    ]) {
      assert.deepEqual([res.status, res.body.code], [503, 'SIGNING_SECRET_UNAVAILABLE']);
    }
    assert.equal((await client.get('/v1/feed')).status, 200);
  });
});
