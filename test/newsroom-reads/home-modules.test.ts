import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createReadsTestApp, HOUR_MS, NOW, type ReadsTestApp } from '../helpers/newsroom-factory.js';
import type { Json } from '../helpers/json.js';

const ids = (items: Json[]) => items.map((i) => i.id as string);
const MODULE_KEYS = ['description', 'generatedAt', 'href', 'id', 'items', 'lang', 'title'];

describe('home and newsroom modules', () => {
  let t: ReadsTestApp;
  const s: Record<string, string> = {};
  before(async () => {
    t = await createReadsTestApp();
    const f = t.factory;
    s.trendingTop = (await f.story({ trendingScore: 9, review: 'CLEAR', publishedAt: new Date(NOW - 10 * HOUR_MS) })).id;
    s.emerging = (
      await f.story({
        trendingScore: 5,
        review: 'EMERGING',
        publishedAt: new Date(NOW - 2 * HOUR_MS),
        rewardWindowEndsAt: new Date(NOW + 70 * HOUR_MS),
      })
    ).id;
    s.contested = (
      await f.story({
        trendingScore: 4,
        review: 'CONTESTED',
        publishedAt: new Date(NOW - 3 * HOUR_MS),
        rewardWindowEndsAt: new Date(NOW + 30 * HOUR_MS),
      })
    ).id;
    s.underReview = (
      await f.story({
        trendingScore: 3,
        review: 'UNDER_REVIEW',
        publishedAt: new Date(NOW - 4 * HOUR_MS),
        rewardWindowEndsAt: new Date(NOW + 90 * 60_000),
      })
    ).id;
    s.graduated = (
      await f.story({
        trendingScore: 2,
        stage: 'GRADUATED',
        review: 'CLEAR',
        publishedAt: new Date(NOW - 100 * HOUR_MS),
        rewardWindowEndsAt: new Date(NOW - 28 * HOUR_MS),
      })
    ).id;
    s.retracted = (await f.story({ trendingScore: 8, review: 'RETRACTED', publishedAt: new Date(NOW - HOUR_MS) })).id;
    s.candidate = (await f.story({ stage: 'CANDIDATE' })).id;
    s.quarantined = (await f.story({ stage: 'CANDIDATE', moderation: 'QUARANTINED' })).id;
    s.future = (
      await f.story({ publishedAt: new Date(NOW + HOUR_MS), rewardWindowEndsAt: new Date(NOW + 73 * HOUR_MS), trendingScore: 0 })
    ).id;
    await f.ledgerEvent(s.graduated, {
      type: 'UPDATE',
      bucket: 'graduated',
      storyState: 'GRADUATED',
      createdAt: new Date(NOW - 30 * HOUR_MS),
    });
    await f.ledgerEvent(s.contested, {
      type: 'CHALLENGE',
      bucket: 'under-review',
      storyState: 'CONTESTED',
      createdAt: new Date(NOW - HOUR_MS),
    });
    await f.ledgerEvent(s.quarantined, { type: 'UPDATE' });
  });
  after(() => t.close());

  test('GET /v1/modules/developing: provisional stories still emerging, contested or under review, newest first', async () => {
    const res = await t.get<Json>('/v1/modules/developing');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), MODULE_KEYS);
    assert.equal(res.body.id, 'developing');
    assert.equal(res.body.title, 'Developing stories');
    assert.equal(res.body.generatedAt, new Date(NOW).toISOString());
    assert.deepEqual(ids(res.body.items), [s.future, s.emerging, s.contested, s.underReview]);
  });

  test('GET /v1/modules/under-review: stories whose state is CONTESTED or UNDER_REVIEW (retracted ones are not listed)', async () => {
    const res = await t.get<Json>('/v1/modules/under-review?lang=fr');
    assert.equal(res.status, 200);
    assert.equal(res.body.id, 'under-review');
    assert.equal(res.body.title, 'En cours d’examen');
    assert.deepEqual(ids(res.body.items), [s.contested, s.underReview]);
    assert.deepEqual(
      res.body.items.map((i: Json) => i.state),
      ['CONTESTED', 'UNDER_REVIEW'],
    );
    assert.equal(res.body.items[0].labels.state, 'Contesté');
  });

  test('GET /v1/modules/ledger: latest ledger events with localized labels, hidden stories left out', async () => {
    const res = await t.get<Json>('/v1/modules/ledger?lang=es');
    assert.equal(res.status, 200);
    assert.equal(res.body.title, 'Registro');
    assert.deepEqual(
      res.body.items.map((e: Json) => e.storyId),
      [s.contested, s.graduated],
    );
    assert.deepEqual(res.body.items[0].labels, { type: 'Impugnación', storyState: 'Disputada', ledgerBucket: 'En revisión' });
    assert.equal(res.body.items[0].rewardWindowActive, true);
    assert.equal(res.body.items[1].rewardWindowActive, false);
  });

  test('GET /v1/modules/reward-window: open windows closing soonest first, with closesAt, hoursLeft and rewardWindowHours', async () => {
    const res = await t.get<Json>('/v1/modules/reward-window');
    assert.equal(res.status, 200);
    assert.equal(res.body.rewardWindowHours, 72);
    assert.match(res.body.description, /72 hours/);
    assert.deepEqual(ids(res.body.items), [s.underReview, s.contested, s.trendingTop, s.emerging]);
    assert.equal(res.body.openCount, 4);
    assert.deepEqual(
      res.body.items.map((i: Json) => [i.closesAt, i.hoursLeft]),
      [
        [new Date(NOW + 90 * 60_000).toISOString(), 1.5],
        [new Date(NOW + 30 * HOUR_MS).toISOString(), 30],
        [new Date(NOW + 62 * HOUR_MS).toISOString(), 62],
        [new Date(NOW + 70 * HOUR_MS).toISOString(), 70],
      ],
    );
    t.clock.advance(2 * HOUR_MS);
    try {
      const later = await t.get<Json>('/v1/modules/reward-window');
      assert.ok(!ids(later.body.items).includes(s.underReview!), 'a closed window leaves the module');
      assert.ok(ids(later.body.items).includes(s.future!), 'a window opens at publication');
    } finally {
      t.clock.set(NOW);
    }
  });

  test('the reward window length in module texts follows the governance parameter', async () => {
    const local = await createReadsTestApp();
    try {
      await local.factory.setParameter('rewardWindowHours', 48);
      const res = await local.get<Json>('/v1/modules/reward-window?lang=de');
      assert.equal(res.body.rewardWindowHours, 48);
      assert.match(res.body.description, /48 Stunden/);
    } finally {
      await local.close();
    }
  });

  test('GET /v1/home: trending hero and the first items of each module, all localized', async () => {
    const res = await t.get<Json>('/v1/home?lang=zh-Hans');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['description', 'generatedAt', 'hero', 'lang', 'sections', 'title']);
    assert.equal(res.body.lang, 'zh-Hans');
    assert.equal(res.body.title, '新闻编辑部');
    assert.equal(res.body.hero.title, '当前热门');
    assert.deepEqual(ids(res.body.hero.items), [s.trendingTop, s.emerging, s.contested, s.underReview, s.graduated]);
    assert.ok(!ids(res.body.hero.items).includes(s.retracted!));
    assert.deepEqual(Object.keys(res.body.sections).sort(), ['developing', 'ledger', 'rewardWindow', 'underReview']);
    assert.equal(res.body.sections.developing.title, '发展中的报道');
    assert.deepEqual(ids(res.body.sections.underReview.items), [s.contested, s.underReview]);
    assert.equal(res.body.sections.ledger.items.length, 2);
    assert.equal(res.body.sections.rewardWindow.openCount, 4);
    assert.equal(res.body.sections.rewardWindow.items[0].labels.state, '审查中');
    for (const section of Object.values(res.body.sections) as Json[]) assert.ok(section.items.length <= 5);
  });

  test('every module and home refuse an unsupported lang with 400', async () => {
    for (const path of [
      '/v1/home',
      '/v1/modules/developing',
      '/v1/modules/under-review',
      '/v1/modules/ledger',
      '/v1/modules/reward-window',
      '/v1/assistant/orientation',
    ]) {
      const res = await t.get<Json>(`${path}?lang=it`);
      assert.equal(res.status, 400, path);
      assert.equal(res.body.code, 'VALIDATION_FAILED');
      for (const lang of ['en', 'es', 'fr', 'de', 'zh-Hans'])
        assert.equal((await t.get(`${path}?lang=${lang}`)).status, 200, `${path} ${lang}`);
    }
  });
});
