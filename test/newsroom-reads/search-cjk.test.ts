import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { splitCjkQuery } from '../../src/newsroom/search/cjk-query.js';
import { fuzzRuns } from '../helpers/fuzz.js';
import { createReadsTestApp, type ReadsTestApp } from '../helpers/newsroom-factory.js';
import type { Json } from '../helpers/json.js';

/** Chinese and Japanese, written without spaces, are found by any word of theirs (bigram vector). */

const ids = (body: Json) => body.items.map((i: Json) => i.id as string);

describe('search in Chinese and Japanese', () => {
  let t: ReadsTestApp;
  const story: Record<string, string> = {};
  const TITLE = '新型固态电池量产计划公布';
  before(async () => {
    t = await createReadsTestApp();
    const f = t.factory;
    const zh = { lang: 'zh-Hans', claims: [{ text: '计划已经公布。' }] };
    story.battery = (
      await f.story({
        ...zh,
        room: 'science',
        title: TITLE,
        claims: [{ text: '工厂明年投产。' }],
        summary: '研究人员表示，能量密度提高一倍。',
        body: '这家工厂位于深圳，Tesla 也在关注。',
      })
    ).id;
    story.bodyOnly = (
      await f.story({ ...zh, room: 'local', title: '城市交通新规', summary: '地铁延长运营时间。', body: '公交车将改用电池驱动。' })
    ).id;
    story.japanese = (
      await f.story({
        lang: 'en',
        room: 'world',
        title: '東京で地震が発生しました',
        summary: 'ニュース速報です。',
        body: 'No damage reported.',
      })
    ).id;
    story.english = (
      await f.story({ room: 'science', title: 'Solid-state battery plan announced', body: 'The battery factory opens.' })
    ).id;
  });
  after(() => t.close());

  const search = async (q: string, extra = '') => {
    const res = await t.get<Json>(`/v1/search?q=${encodeURIComponent(q)}${extra}`);
    assert.equal(res.status, 200, q);
    return ids(res.body);
  };

  test('a Chinese word inside unsegmented text finds its stories, the title match first', async () => {
    assert.deepEqual(await search('电池', '&lang=zh-Hans'), [story.battery, story.bodyOnly]);
    assert.deepEqual(await search('电池'), [story.battery, story.bodyOnly], 'whatever the reader language');
    assert.deepEqual(await search('固态电池'), [story.battery]);
    assert.deepEqual(await search('深圳'), [story.battery], 'a body word');
    assert.deepEqual(await search('投产'), [story.battery], 'a claim word');
    assert.deepEqual(await search('地震'), [story.japanese], 'Japanese (kanji and kana)');
    assert.deepEqual(await search('ニュース'), [story.japanese]);
  });

  test('characters that are not side by side in the story, or in no story, find nothing', async () => {
    assert.deepEqual(await search('电固'), [], 'both characters occur, never as this word');
    assert.deepEqual(await search('量子计算'), []);
    assert.deepEqual(await search('池态'), []);
  });

  test('a query mixing scripts needs both parts; one character is a prefix of a word', async () => {
    assert.deepEqual(await search('电池 Tesla'), [story.battery]);
    assert.deepEqual(await search('电池 nonexistentword'), []);
    assert.deepEqual(await search('battery'), [story.english], 'space-separated languages as before');
    assert.deepEqual(new Set(await search('池')), new Set([story.battery, story.bodyOnly]), 'the last character of a word');
    assert.deepEqual(await search('震'), [story.japanese]);
    for (const q of ['"电池"', '-电池', '电池:*', "电池'", '电池 or 地震', '。，、']) assert.ok(Array.isArray(await search(q)), q);
  });

  test('the site search page finds the Chinese story too', async () => {
    const res = await t.app.inject(`/search?lang=zh-Hans&q=${encodeURIComponent('电池')}`);
    assert.equal(res.statusCode, 200);
    assert.ok(res.body.includes(`/stories/${story.battery}?`));
    assert.ok(res.body.includes(`/stories/${story.bodyOnly}?`));
    assert.ok(!res.body.includes(`/stories/${story.english}?`));
  });

  test('property: any two or more consecutive characters of a Chinese title find its story', async () => {
    const chars = [...TITLE];
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 0, max: chars.length - 2 })
          .chain((start) => fc.tuple(fc.constant(start), fc.integer({ min: start + 2, max: chars.length }))),
        async ([start, end]) => {
          const q = chars.slice(start, end).join('');
          assert.ok((await search(q)).includes(story.battery), q);
        },
      ),
      { numRuns: fuzzRuns(60, 12) },
    );
  });

  test('the query split: runs require their bigrams, the rest stays for the word search', () => {
    assert.deepEqual(splitCjkQuery('election'), { cjk: undefined, rest: 'election' });
    assert.deepEqual(splitCjkQuery('锂电池 Tesla'), { cjk: "'锂电' & '电池'", rest: 'Tesla' });
    assert.deepEqual(splitCjkQuery('电 地震'), { cjk: "'电':* & '地震'", rest: '' });
    assert.deepEqual(splitCjkQuery('"电池"'), { cjk: "'电池'", rest: '' });
  });
});
