import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TOPICS_PER_READER } from '../../src/readers/users/topic-schemas.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { needsPostgres } from '../helpers/needs.js';
import { newsroomClient } from '../helpers/newsroom.js';
import type { Json } from '../helpers/json.js';
import { readerAs } from './reader-helpers.js';

const WHY = 'concurrent transactions on several connections (PGlite runs one at a time)';

describe('reader accounts under concurrent requests', () => {
  let t: TestApp;
  let newsroom: ReturnType<typeof newsroomClient>;
  before(async () => {
    t = await createTestApp({ RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '100000' });
    newsroom = newsroomClient(await t.listen());
  });
  after(() => t.close());

  test("preference writes that arrive together share statements: each is answered with its own document, and one reader's racing patches all merge", async () => {
    const rooms = (i: number) => [`room-${i}`];
    const readers = Array.from({ length: 40 }, (_, i) => readerAs(newsroom.client, `reader-prefs-together-${i}`));
    const one = readerAs(newsroom.client, 'reader-prefs-racing');
    const patches = [
      { lang: 'fr' },
      { feedMode: 'graduated' },
      { rooms: ['world'] },
      { emailDigest: 'WEEKLY' },
      { showContested: true },
    ] as const;
    const [answers, racing] = await Promise.all([
      Promise.all(readers.map((r, i) => r.preferences({ rooms: rooms(i) }))),
      Promise.all(patches.map((p) => one.preferences(p))),
    ]);
    answers.forEach((a, i) => {
      assert.equal(a.status, 202);
      assert.deepEqual([a.body.actorId, a.body.preferences], [readers[i]!.actorId, { rooms: rooms(i) }]);
    });
    assert.ok(racing.every((r) => r.status === 202));
    const stored = (await one.read('/v1/users/me/preferences')).body.preferences;
    assert.deepEqual(stored, Object.assign({}, ...patches));
  });

  test('racing follows never pass the per-reader bound', { skip: needsPostgres(WHY) }, async () => {
    const reader = readerAs(newsroom.client, 'reader-race-bound');
    const rows = Array.from({ length: TOPICS_PER_READER - 2 }, (_, i) => ({
      actor_id: reader.actorId,
      topic: `seed ${i}`,
      kind: 'TAG' as const,
      label: `seed ${i}`,
      created_at: new Date(),
    }));
    await t.db.database.db.insertInto('user_topics').values(rows).execute();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => reader.follow(`racer ${i}`)));
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [202, 202, 409, 409, 409, 409, 409, 409]);
    assert.equal((await reader.topics()).body.items.length, TOPICS_PER_READER);
  });

  test('racing follows of one topic in different spellings make one follow', { skip: needsPostgres(WHY) }, async () => {
    const reader = readerAs(newsroom.client, 'reader-race-same');
    const spellings = ['Ferry', 'FERRY', ' ferry ', 'ferry', 'FeRrY\t', 'ferry  '];
    const results = await Promise.all(spellings.map((s) => reader.follow(s)));
    assert.ok(results.every((r) => r.status === 202));
    assert.equal(results.filter((r) => r.body.created === true).length, 1);
    assert.deepEqual(
      (await reader.topics()).body.items.map((x: Json) => x.topic),
      ['ferry'],
    );
  });

  test('racing bookmarks and reads of one story keep one bookmark and count every read', { skip: needsPostgres(WHY) }, async () => {
    const storyId = (await newsroom.publishedStory()).storyId;
    const reader = readerAs(newsroom.client, 'reader-race-story');
    await reader.preferences({ personalization: true });
    const [bookmarks, reads] = await Promise.all([
      Promise.all(Array.from({ length: 6 }, () => reader.bookmark(storyId))),
      Promise.all(Array.from({ length: 6 }, () => reader.readStory(storyId))),
    ]);
    assert.equal(bookmarks.filter((r) => r.body.created === true).length, 1);
    assert.ok(reads.every((r) => r.status === 200));
    const exported = (await reader.export()).body.sections;
    assert.equal(exported.bookmarks.length, 1);
    assert.deepEqual(
      exported.history.items.map((h: Json) => [h.storyId, h.readCount]),
      [[storyId, 6]],
    );
  });
});
