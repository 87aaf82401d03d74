import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { RANK_WINDOW } from '../../src/newsroom/search/repository.js';
import { fuzzRuns } from '../helpers/fuzz.js';
import { createReadsTestApp, HOUR_MS, NOW, type ReadsTestApp } from '../helpers/newsroom-factory.js';
import type { Json } from '../helpers/json.js';

const ids = (body: Json) => body.items.map((i: Json) => i.id as string);

describe('GET /v1/search', () => {
  let t: ReadsTestApp;
  const corpus: Record<string, string> = {};
  before(async () => {
    t = await createReadsTestApp();
    const f = t.factory;
    const plain = { summary: 'A routine notice.', body: 'Nothing else to report today.', claims: [{ text: 'The notice was published.' }] };
    corpus.titleMatch = (await f.story({ ...plain, room: 'politics', title: 'City council election results announced' })).id;
    corpus.bodyMatch = (
      await f.story({
        ...plain,
        room: 'politics',
        title: 'Council budget meeting',
        body: 'The budget debate was delayed until after the election in May.',
      })
    ).id;
    corpus.summaryMatch = (
      await f.story({
        ...plain,
        room: 'local',
        title: 'Polling stations open early',
        summary: 'Officials prepare for two elections this spring.',
      })
    ).id;
    corpus.unrelated = (await f.story({ ...plain, room: 'local', title: 'Harbour ferry timetable expanded' })).id;
    corpus.spanish = (
      await f.story({
        ...plain,
        lang: 'es',
        room: 'world',
        title: 'Resultados de las elecciones municipales',
        summary: 'El recuento terminó anoche.',
      })
    ).id;
    corpus.chinese = (
      await f.story({ ...plain, lang: 'zh-Hans', room: 'world', title: '城市 选举 结果 公布', summary: '计票 已经 结束。' })
    ).id;
    corpus.candidate = (await f.story({ ...plain, stage: 'CANDIDATE', room: 'politics', title: 'Draft: election night coverage plan' })).id;
    corpus.quarantined = (await f.story({ ...plain, stage: 'CANDIDATE', moderation: 'QUARANTINED', title: 'Election rumour' })).id;
    corpus.contested = (
      await f.story({ ...plain, review: 'CONTESTED', room: 'politics', title: 'Turnout figures disputed after election' })
    ).id;
    corpus.graduated = (
      await f.story({ ...plain, stage: 'GRADUATED', review: 'CLEAR', room: 'politics', title: 'Election commission certifies result' })
    ).id;
    corpus.retracted = (await f.story({ ...plain, review: 'RETRACTED', room: 'politics', title: 'Retracted: election date moved' })).id;
  });
  after(() => t.close());

  test('the story whose title matches ranks first; relevance is by ts_rank_cd, then id', async () => {
    const res = await t.get<Json>('/v1/search?q=council%20election');
    assert.equal(res.status, 200);
    assert.equal(res.body.items[0].id, corpus.titleMatch);
    assert.ok(ids(res.body).includes(corpus.bodyMatch));
    assert.ok(!ids(res.body).includes(corpus.unrelated));
    const ranks = res.body.items.map((i: Json) => i.rank as number);
    assert.deepEqual(
      [...ranks].sort((a, b) => b - a),
      ranks,
    );
    assert.deepEqual(res.body.query, { q: 'council election', lang: 'en', limit: 20, order: 'relevance' });
  });

  test('English stemming: "elections" finds "election" and the other way round', async () => {
    const plural = ids((await t.get<Json>('/v1/search?q=elections')).body);
    for (const id of [corpus.titleMatch, corpus.bodyMatch, corpus.summaryMatch]) assert.ok(plural.includes(id), id);
    const singular = ids((await t.get<Json>('/v1/search?q=election')).body);
    assert.ok(singular.includes(corpus.summaryMatch));
  });

  test('stories in other languages are found: with their language config, and by exact word with any lang', async () => {
    assert.equal(ids((await t.get<Json>('/v1/search?q=elecciones&lang=es')).body)[0], corpus.spanish);
    assert.ok(ids((await t.get<Json>('/v1/search?q=elecciones')).body).includes(corpus.spanish), 'simple config matches the exact word');
    assert.ok(ids((await t.get<Json>('/v1/search?q=municipal&lang=es')).body).includes(corpus.spanish), 'Spanish stemming');
    assert.deepEqual(ids((await t.get<Json>('/v1/search?q=选举&lang=zh-Hans')).body), [corpus.chinese]);
  });

  test('web-search syntax: quoted phrases and excluded words', async () => {
    const phrase = ids((await t.get<Json>('/v1/search?q=%22council%20election%22')).body);
    assert.deepEqual(phrase, [corpus.titleMatch]);
    const excluded = ids((await t.get<Json>('/v1/search?q=election%20-council')).body);
    assert.ok(!excluded.includes(corpus.titleMatch));
    assert.ok(excluded.includes(corpus.contested));
  });

  test('candidates appear only when publicationStage=CANDIDATE is asked for; hidden stories never', async () => {
    const all = ids((await t.get<Json>('/v1/search?q=election')).body);
    assert.ok(!all.includes(corpus.candidate));
    assert.ok(!all.includes(corpus.quarantined));
    const candidates = await t.get<Json>('/v1/search?q=election&publicationStage=CANDIDATE');
    assert.deepEqual(ids(candidates.body), [corpus.candidate]);
    assert.equal(candidates.body.items[0].state, null);
    assert.deepEqual(ids((await t.get<Json>('/v1/search?publicationStage=CANDIDATE')).body), [corpus.candidate]);
  });

  test('filters: state (derived), publicationStage, reviewStatus and room', async () => {
    const q = '/v1/search?q=election';
    assert.deepEqual(ids((await t.get<Json>(`${q}&state=CONTESTED`)).body), [corpus.contested]);
    assert.deepEqual(ids((await t.get<Json>(`${q}&state=GRADUATED`)).body), [corpus.graduated]);
    assert.deepEqual(
      ids((await t.get<Json>(`${q}&state=UNDER_REVIEW`)).body),
      [corpus.retracted],
      'a retracted story is in state UNDER_REVIEW',
    );
    assert.deepEqual(ids((await t.get<Json>(`${q}&publicationStage=GRADUATED`)).body), [corpus.graduated]);
    assert.deepEqual(ids((await t.get<Json>(`${q}&reviewStatus=RETRACTED`)).body), [corpus.retracted]);
    const provisional = ids((await t.get<Json>(`${q}&state=PROVISIONAL`)).body);
    assert.ok(
      provisional.includes(corpus.titleMatch) && !provisional.includes(corpus.contested) && !provisional.includes(corpus.graduated),
    );
    const local = ids((await t.get<Json>(`${q}s&room=local`)).body);
    assert.deepEqual(local, [corpus.summaryMatch]);
    const echo = (await t.get<Json>(`${q}&room=politics&state=PROVISIONAL&reviewStatus=EMERGING&lang=fr&limit=5`)).body.query;
    assert.deepEqual(echo, {
      q: 'election',
      room: 'politics',
      state: 'PROVISIONAL',
      reviewStatus: 'EMERGING',
      lang: 'fr',
      limit: 5,
      order: 'relevance',
    });
  });

  test('without q: newest first by publication time; labels follow lang', async () => {
    const local = await createReadsTestApp();
    try {
      const older = await local.factory.story({ publishedAt: new Date(NOW - 5 * HOUR_MS) });
      const newer = await local.factory.story({ publishedAt: new Date(NOW - HOUR_MS) });
      const res = await local.get<Json>('/v1/search?lang=fr');
      assert.deepEqual(ids(res.body), [newer.id, older.id]);
      assert.equal(res.body.items[0].labels.state, 'Provisoire');
      assert.equal('rank' in res.body.items[0], false);
      assert.equal(res.body.query.order, 'recent');
      assert.equal((await local.get<Json>('/v1/search?q=%20%20')).body.query.order, 'recent', 'a blank q is no query');
    } finally {
      await local.close();
    }
  });

  test('any query text is answered (never a 500): operators, quotes, stop words, other scripts', async () => {
    for (const q of ['the', '"', "'", '!', '&|!():*<->', 'election:*', '-', 'OR', '""', '🗳️ election', 'élection', 'x'.repeat(500)]) {
      const res = await t.get<Json>(`/v1/search?q=${encodeURIComponent(q)}`);
      assert.equal(res.status, 200, q);
    }
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 120, unit: 'grapheme' }),
        fc.constantFrom('en', 'es', 'fr', 'de', 'zh-Hans'),
        async (q, lang) => {
          const res = await t.get<Json>(`/v1/search?q=${encodeURIComponent(q)}&lang=${lang}`);
          assert.equal(res.status, q.includes('\u0000') ? 400 : 200, JSON.stringify({ q, body: res.body }));
        },
      ),
      { numRuns: fuzzRuns(300, 60) },
    );
  });

  test('a chain of negations of any length is answered with the meaning of its parity (past 32 it was a 500)', async () => {
    for (const q of [
      '-'.repeat(500),
      `election ${'-'.repeat(400)}council`,
      `${'- '.repeat(240)}election`,
      `${'-!('.repeat(150)}election`,
      `${'-选'.repeat(200)} election`,
      `"${'-'.repeat(400)}" election`,
    ]) {
      const res = await t.get<Json>(`/v1/search?q=${encodeURIComponent(q)}`);
      assert.equal(res.status, 200, `${q.slice(0, 40)}: ${JSON.stringify(res.body)}`);
    }
    const found = async (q: string) => ids((await t.get<Json>(`/v1/search?q=${encodeURIComponent(q)}`)).body);
    assert.deepEqual(await found(`election ${'-'.repeat(41)}council`), await found('election -council'));
    assert.deepEqual(await found(`election ${'- '.repeat(40)}council`), await found('election council'));
    await fc.assert(
      fc.asyncProperty(
        fc
          .string({ unit: fc.constantFrom('-', '-', '-', ' ', '!', '(', '<', '|', '"', ',', 'election', 'or', '选'), maxLength: 300 })
          .map((q) => q.slice(0, 500)),
        async (q) => {
          const res = await t.get<Json>(`/v1/search?q=${encodeURIComponent(q)}`);
          assert.equal(res.status, 200, JSON.stringify({ q, body: res.body }));
        },
      ),
      { numRuns: fuzzRuns(300, 40) },
    );
  });

  test('limit is an integer from 1 to 100 (default 20)', async () => {
    for (const limit of ['0', '101', '-3', '2.5', 'many']) {
      const res = await t.get<Json>(`/v1/search?limit=${limit}`);
      assert.equal(res.status, 400, limit);
      assert.equal(res.body.code, 'VALIDATION_FAILED');
      assert.equal(res.body.details[0].path, '/querystring/limit');
    }
    assert.equal((await t.get('/v1/search?limit=100')).status, 200);
    assert.equal((await t.get<Json>('/v1/search?limit=1')).body.items.length, 1);
  });

  test('filters are validated exactly as the route schema lists them', async () => {
    for (const query of [
      'q=a%00b',
      'state=RETRACTED',
      'publicationStage=DRAFT',
      'reviewStatus=OPEN',
      'queue=LATE',
      'status=CLOSED',
      'targetType=USER',
      'lang=it',
      'assignedToActorId=has%20space',
      `q=${'x'.repeat(501)}`,
    ]) {
      const res = await t.get<Json>(`/v1/search?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.code, 'VALIDATION_FAILED', query);
    }
  });

  test('review-case filters are accepted and list the matching review cases (none here: nothing is invented)', async () => {
    for (const query of [
      'queue=PENDING',
      'status=IN_REVIEW',
      'assignedToActorId=admin-1',
      'targetType=PAYOUT',
      'queue=FROZEN&status=APPEALED&targetType=BATCH',
    ]) {
      const res = await t.get<Json>(`/v1/search?${query}&lang=de`);
      assert.equal(res.status, 200, query);
      assert.deepEqual(res.body.reviewCases, { items: [], available: true });
    }
    const echo = (await t.get<Json>('/v1/search?queue=OVERDUE&assignedToActorId=admin-1')).body.query;
    assert.equal(echo.queue, 'OVERDUE');
    assert.equal(echo.assignedToActorId, 'admin-1');
    assert.equal('reviewCases' in (await t.get<Json>('/v1/search?q=election')).body, false);
  });

  test('relevance pages: every match exactly once in rank order; a cursor is bound to its query', async () => {
    const local = await createReadsTestApp();
    try {
      const expected: string[] = [];
      for (let i = 0; i < 13; i += 1) {
        const words = Array.from({ length: 1 + (i % 4) }, () => 'lighthouse').join(' ');
        expected.push(
          (
            await local.factory.story({
              title: i % 3 === 0 ? `Lighthouse keeper ${i}` : `Coast notice ${i}`,
              summary: `Notice ${i}.`,
              body: `${words} restoration work.`,
            })
          ).id,
        );
      }
      const walked: Json[] = [];
      let cursor: string | undefined;
      do {
        const res = await local.get<Json>(`/v1/search?q=lighthouse&limit=4${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(res.status, 200);
        walked.push(...res.body.items);
        cursor = res.body.nextCursor;
      } while (cursor);
      assert.deepEqual(walked.map((i) => i.id).sort(), [...expected].sort());
      for (let i = 1; i < walked.length; i += 1) {
        const [a, b] = [walked[i - 1]!, walked[i]!];
        assert.ok(a.rank > b.rank || (a.rank === b.rank && a.id < b.id), `${a.id} before ${b.id}`);
      }
      const next = (await local.get<Json>('/v1/search?q=lighthouse&limit=4')).body.nextCursor as string;
      for (const other of ['q=keeper', 'q=lighthouse&room=world', 'q=lighthouse&lang=de', 'q=lighthouse&state=CONTESTED', '']) {
        const res = await local.get<Json>(`/v1/search?${other}&cursor=${next}`);
        assert.equal(res.status, 400, other);
        assert.equal(res.body.code, 'INVALID_CURSOR');
      }
      const recent = await local.get<Json>('/v1/search?limit=5');
      assert.equal((await local.get<Json>(`/v1/search?q=lighthouse&cursor=${recent.body.nextCursor}`)).body.code, 'INVALID_CURSOR');
      assert.equal((await local.get(`/v1/search?limit=5&cursor=${recent.body.nextCursor}`)).status, 200);
    } finally {
      await local.close();
    }
  });

  test('a common word ranks the newest RANK_WINDOW matches; the window holds still while new stories arrive', async () => {
    const local = await createReadsTestApp();
    try {
      const minute = 60_000;
      // The best match of all (the word in its title, summary and body) is older than the whole window.
      const oldBest = (
        await local.factory.story({
          title: 'Lighthouse lighthouse keeper',
          summary: 'Lighthouse news.',
          body: 'lighthouse '.repeat(20),
          publishedAt: new Date(NOW - 100 * HOUR_MS),
        })
      ).id;
      const windowIds: string[] = [];
      for (let i = 0; i < RANK_WINDOW + 10; i += 1) {
        const story = await local.factory.story({
          title: `Coast notice ${i}`,
          summary: `Notice ${i}.`,
          body: `${'lighthouse '.repeat(1 + (i % 5))}repairs.`,
          publishedAt: new Date(NOW - 10 * HOUR_MS + i * minute),
        });
        windowIds.push(story.id);
      }
      const newest = windowIds.slice(-RANK_WINDOW);
      const walked: Json[] = [];
      let cursor: string | undefined;
      let arrived = 0;
      do {
        const res = await local.get<Json>(`/v1/search?q=lighthouse&limit=37${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(res.status, 200);
        walked.push(...res.body.items);
        cursor = res.body.nextCursor;
        // A story published while the reader pages joins the window; it must not push older ones out of it.
        await local.factory.story({
          title: `Late notice ${arrived}`,
          summary: 'Late.',
          body: 'lighthouse',
          publishedAt: new Date(NOW - HOUR_MS + arrived * minute),
        });
        arrived += 1;
      } while (cursor);
      const seen = walked.map((i) => i.id as string);
      assert.equal(new Set(seen).size, seen.length, 'no story twice');
      for (const id of newest) assert.ok(seen.includes(id), `${id} of the first window is on a page`);
      assert.ok(!seen.includes(oldBest), 'a match older than the window is not ranked');
      assert.ok(!seen.includes(windowIds[0]!), 'the oldest of the RANK_WINDOW + 10 matches is outside the window');
      for (let i = 1; i < walked.length; i += 1) assert.ok(walked[i - 1]!.rank >= walked[i]!.rank, 'rank order');
      // Narrower filters reach older stories: the old best match is the only match of its phrase.
      const phrase = await local.get<Json>('/v1/search?q=%22lighthouse%20keeper%22');
      assert.deepEqual(ids(phrase.body), [oldBest]);
    } finally {
      await local.close();
    }
  });

  test('a hand-made search cursor is 400 INVALID_CURSOR, never a 500 (unkeyed check, or a rank no real can hold)', async () => {
    const first = await t.get<Json>('/v1/search?q=election&limit=1');
    assert.equal(first.status, 200);
    assert.ok(first.body.nextCursor, 'the corpus has two election stories');
    const [payload] = (first.body.nextCursor as string).split('.');
    const values = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as unknown[];
    values[1] = 1e308;
    const forgedPayload = Buffer.from(JSON.stringify(values)).toString('base64url');
    const unkeyed = `${forgedPayload}.${createHash('sha256').update(`newsroom-cursor-v1:${forgedPayload}`).digest('base64url').slice(0, 16)}`;
    const signed = t.app.ctx.cursors.encode(values[0] as string, values.slice(1) as (string | number)[]);
    for (const cursor of [unkeyed, signed]) {
      const res = await t.get<Json>(`/v1/search?q=election&limit=1&cursor=${cursor}`);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.code, 'INVALID_CURSOR');
    }
  });
});
