import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { correctableWords, correctedQuery, prefixTerm } from '../../src/newsroom/search/forgiving-query.js';
import { createReadsTestApp, type ReadsTestApp } from '../helpers/newsroom-factory.js';
import type { Json } from '../helpers/json.js';

/** Search forgives: the last word as a prefix, a typo corrected in a "did you mean", a room in any case. */

const ids = (body: Json) => body.items.map((i: Json) => i.id as string);

describe('search that forgives', () => {
  let t: ReadsTestApp;
  const story: Record<string, string> = {};
  const search = async (query: string) => {
    const res = await t.get<Json>(`/v1/search?${query}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  before(async () => {
    t = await createReadsTestApp();
    const f = t.factory;
    const plain = { summary: 'A routine notice.', body: 'Nothing else to report today.', claims: [{ text: 'The notice was published.' }] };
    story.library = (await f.story({ ...plain, room: 'local', title: 'City library reopens after repairs' })).id;
    story.fair = (await f.story({ ...plain, room: 'local', title: 'Warmsen fair draws record crowds' })).id;
    story.council = (await f.story({ ...plain, room: 'politics', title: 'Council votes on the harbour budget' })).id;
    story.es = (await f.story({ ...plain, lang: 'es', room: 'culture', title: 'La biblioteca municipal amplía su horario' })).id;
    story.fr = (await f.story({ ...plain, lang: 'fr', room: 'culture', title: 'La médiathèque rouvre ses portes' })).id;
    story.de = (await f.story({ ...plain, lang: 'de', room: 'culture', title: 'Stadtbibliothek verlängert die Öffnungszeiten' })).id;
    story.zh = (await f.story({ ...plain, lang: 'zh-Hans', room: 'culture', title: '城市图书馆延长开放时间' })).id;
    // a published story hidden by moderation: its title's words are in the vocabulary, it is never suggested
    await f.story({ ...plain, moderation: 'QUARANTINED', title: 'Xylophonist quits orchestra' });
  });
  after(() => t.close());

  test('the last word is a prefix while the reader types, after exact words', async () => {
    assert.deepEqual(ids(await search('q=librar')), [story.library]);
    assert.deepEqual(ids(await search('q=city%20libr')), [story.library]);
    // the exact, stemmed query still counts: "libraries" finds "library", which no prefix of it would
    assert.deepEqual(ids(await search('q=libraries')), [story.library]);
    // too short to be a prefix: exact
    assert.deepEqual(ids(await search('q=li')), []);
  });

  test('each language the site serves finds a title by the beginning of its word', async () => {
    assert.deepEqual(ids(await search('q=bibliote&lang=es')), [story.es]);
    assert.deepEqual(ids(await search('q=m%C3%A9diath&lang=fr')), [story.fr]);
    assert.deepEqual(ids(await search('q=Stadtbibl&lang=de')), [story.de]);
    assert.deepEqual(ids(await search(`q=${encodeURIComponent('图书')}&lang=zh-Hans`)), [story.zh]);
    assert.deepEqual(ids(await search(`q=${encodeURIComponent('图')}&lang=zh-Hans`)), [story.zh]);
  });

  test('queries are trimmed and case-insensitive; the room filter matches its slug in any case', async () => {
    const body = await search(`q=${encodeURIComponent('  LIBRARY  ')}&room=Local`);
    assert.deepEqual(ids(body), [story.library]);
    assert.equal(body.query.q, 'LIBRARY');
    assert.equal(body.query.room, 'local');
    assert.deepEqual(ids(await search('room=POLITICS')), [story.council]);
    assert.deepEqual(ids(await search(`room=${encodeURIComponent(' local ')}&q=warmsen`)), [story.fair]);
    assert.equal((await t.get<Json>('/v1/search?room=no%20such')).status, 400);
  });

  test('a typo finds nothing and answers the corrected query as "did you mean"', async () => {
    const typo = await search('q=libary');
    assert.deepEqual(typo.items, []);
    assert.deepEqual(typo.suggestion, { q: 'library' });
    assert.deepEqual(ids(await search('q=library')), [story.library]);
    assert.deepEqual((await search('q=warmsten%20fair')).suggestion, { q: 'warmsen fair' });
    assert.deepEqual((await search('q=Counsil%20budget')).suggestion, { q: 'council budget' });
  });

  test('no suggestion when nothing is near, when the filters exclude it, or when only a hidden story holds it', async () => {
    for (const query of ['q=qqzzxv', 'q=libary&room=politics', 'q=xylophonst', 'q=library']) {
      const body = await search(query);
      assert.equal(body.suggestion, undefined, query);
    }
    assert.deepEqual(ids(await search('q=libary&room=politics')), []);
  });

  test('the words a prefix and a correction work on', () => {
    assert.deepEqual(prefixTerm('city librar'), { head: 'city', term: "'librar':*" });
    assert.equal(prefixTerm('"city librar"'), undefined);
    assert.equal(prefixTerm('city OR librar'), undefined);
    assert.equal(prefixTerm('city -librar'), undefined);
    assert.equal(prefixTerm("it's"), undefined);
    assert.deepEqual(correctableWords('Libary of 2024 x'), ['libary']);
    assert.equal(correctedQuery('Libary of town', new Map([['libary', 'library']])), 'library of town');
    assert.equal(correctedQuery('library', new Map([['library', null]])), undefined);
  });
});
