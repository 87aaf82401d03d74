import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { ModerationStatus, PublicationStage, ReviewStatus } from '../../src/newsroom/rows.js';
import { fuzzRuns } from '../helpers/fuzz.js';
import { createReadsTestApp, HOUR_MS, NOW, type ReadsTestApp } from '../helpers/newsroom-factory.js';
import type { Json } from '../helpers/json.js';

type Mode = 'trending' | 'graduated' | 'developing' | 'recent';

let roomCounter = 0;
const freshRoom = () => `feed-${process.pid}-${(roomCounter += 1)}`;

/** Microsecond timestamps from a small pool, so ties (broken by id) are common. */
const micros = (i: number) => `2026-03-0${1 + (i % 5)}T10:00:00.${String(100000 + (i % 7)).padStart(6, '0')}Z`;
/** Doubles that stress a JSON round trip, plus arbitrary finite ones. */
const score = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    1,
    -1,
    1 / 3,
    0.1,
    0.1 + 0.2,
    1e-300,
    5e-324,
    1.7976931348623157e308,
    -1.7976931348623157e308,
    2 ** 53 + 2,
    40_000.123456789,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

interface Spec {
  stage: PublicationStage;
  review: ReviewStatus;
  moderation: ModerationStatus;
  score: number;
  time: number;
}

const spec = fc.record<Spec>({
  stage: fc.constantFrom('CANDIDATE', 'PROVISIONAL', 'PROVISIONAL', 'GRADUATED'),
  review: fc.constantFrom('EMERGING', 'EMERGING', 'CLEAR', 'CONTESTED', 'UNDER_REVIEW', 'RETRACTED'),
  moderation: fc.constantFrom('ALLOWED', 'ALLOWED', 'ALLOWED', 'QUARANTINED'),
  score,
  time: fc.nat({ max: 40 }),
});

/** Which stories each mode lists, by the rules in docs/newsroom-reads.md (written independently of the SQL). */
function inMode(mode: Mode, s: Spec): boolean {
  if (s.stage === 'CANDIDATE' || s.moderation !== 'ALLOWED' || s.review === 'RETRACTED') return false;
  if (mode === 'graduated') return s.stage === 'GRADUATED';
  if (mode === 'developing') return s.stage === 'PROVISIONAL' && ['EMERGING', 'CONTESTED', 'UNDER_REVIEW'].includes(s.review);
  return true;
}

function sortKey(mode: Mode, s: Spec): number | string {
  return mode === 'trending' ? s.score : micros(s.time);
}

/** -1 when a comes strictly before b in the mode's order (sort key DESC, id DESC). */
function before_(a: { key: number | string; id: string }, b: { key: number | string; id: string }): boolean {
  if (a.key !== b.key && !(typeof a.key === 'number' && a.key === b.key)) return a.key > b.key;
  return a.id > b.id;
}

describe('GET /v1/feed', () => {
  let t: ReadsTestApp;
  before(async () => {
    t = await createReadsTestApp();
  });
  after(() => t.close());

  /** Ids are lowercase letters and digits of one length, so every collation orders them as JS does. */
  async function seed(room: string, specs: Spec[], prefix: string) {
    const stored = new Map<string, Spec>();
    for (const [i, s] of specs.entries()) {
      const id = `st_${room.split('-').pop()!.padStart(6, '0')}${prefix}${String(i).padStart(5, '0')}`;
      const time = micros(s.time);
      await t.factory.story({
        id,
        room,
        stage: s.stage,
        review: s.review,
        moderation: s.stage === 'CANDIDATE' && s.moderation === 'ALLOWED' ? 'PENDING_SCAN' : s.moderation,
        trendingScore: s.score,
        publishedAt: s.stage === 'CANDIDATE' ? null : time,
        graduatedAt: s.stage === 'GRADUATED' ? time : null,
        sources: [],
      });
      stored.set(id, { ...s, moderation: s.moderation });
    }
    return stored;
  }

  async function walk(url: string, limit: number, between?: (page: number) => Promise<void>) {
    const ids: string[] = [];
    let cursor: string | undefined;
    let page = 0;
    do {
      const res = await t.get<Json>(`${url}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok(res.body.items.length <= limit);
      if (res.body.nextCursor) assert.equal(res.body.items.length, limit);
      ids.push(...res.body.items.map((item: Json) => item.id as string));
      cursor = res.body.nextCursor;
      page += 1;
      if (between) await between(page);
      assert.ok(page < 500, 'the walk terminates');
    } while (cursor);
    return ids;
  }

  for (const mode of ['trending', 'graduated', 'developing', 'recent'] as const) {
    test(`${mode}: walking every page returns each listed story exactly once, in order, even with stories inserted between pages`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(spec, { maxLength: 24 }),
          fc.array(spec, { maxLength: 6 }),
          fc.integer({ min: 1, max: 7 }),
          async (initial, inserted, limit) => {
            const room = freshRoom();
            const stored = await seed(room, initial, 'a');
            const expected = [...stored.entries()].filter(([, s]) => inMode(mode, s)).map(([id]) => id);
            let next = 0;
            const walked = await walk(`/v1/feed?mode=${mode}&room=${room}`, limit, async () => {
              const s = inserted[next];
              if (s === undefined) return;
              next += 1;
              for (const [id, v] of await seed(room, [s], `b${next}`)) stored.set(id, v);
            });
            assert.equal(new Set(walked).size, walked.length, 'no story twice');
            for (const id of expected) assert.ok(walked.includes(id), `${id} is listed`);
            for (const id of walked) assert.ok(inMode(mode, stored.get(id)!), `${id} belongs in ${mode}`);
            for (let i = 1; i < walked.length; i += 1) {
              const a = { key: sortKey(mode, stored.get(walked[i - 1]!)!), id: walked[i - 1]! };
              const b = { key: sortKey(mode, stored.get(walked[i]!)!), id: walked[i]! };
              assert.ok(before_(a, b), `${a.id} (${String(a.key)}) before ${b.id} (${String(b.key)})`);
            }
          },
        ),
        { numRuns: fuzzRuns(60, 15) },
      );
    });
  }

  test('the default mode is trending; cards are compact, localized and carry counts', async () => {
    const room = freshRoom();
    const low = await t.factory.story({ room, trendingScore: 1 });
    const high = await t.factory.story({ room, trendingScore: 2, counts: { attestations: 3, comments: 2 } });
    const res = await t.get<Json>(`/v1/feed?room=${room}&lang=es`);
    assert.equal(res.status, 200);
    assert.equal(res.body.mode, 'trending');
    assert.equal(res.body.modeLabel, 'Tendencias');
    assert.deepEqual(
      res.body.items.map((i: Json) => i.id),
      [high.id, low.id],
    );
    assert.equal('nextCursor' in res.body, false);
    assert.deepEqual(Object.keys(res.body.items[0]).sort(), [
      'counts',
      'href',
      'id',
      'labels',
      'lang',
      'publicationStage',
      'publishedAt',
      'reviewStatus',
      'room',
      'state',
      'summary',
      'title',
    ]);
    assert.deepEqual(res.body.items[0].counts, { attestations: 3, objections: 0, comments: 2, flags: 0, rewardVotes: 0 });
    assert.equal(res.body.items[0].labels.state, 'Provisional');
  });

  test('feeds never list candidates, hidden stories or retracted stories', async () => {
    const room = freshRoom();
    const listed = await t.factory.story({ room });
    await t.factory.story({ room, stage: 'CANDIDATE' });
    await t.factory.story({ room, stage: 'CANDIDATE', moderation: 'QUARANTINED' });
    await t.factory.story({ room, moderation: 'BLOCKED' });
    await t.factory.story({ room, review: 'RETRACTED' });
    for (const mode of ['trending', 'recent', 'developing']) {
      const res = await t.get<Json>(`/v1/feed?room=${room}&mode=${mode}`);
      assert.deepEqual(
        res.body.items.map((i: Json) => i.id),
        [listed.id],
        mode,
      );
    }
  });

  test('room filters; developing lists provisional stories still under review, newest first', async () => {
    const room = freshRoom();
    const other = await t.factory.story({ room: freshRoom() });
    const emerging = await t.factory.story({ room, review: 'EMERGING', publishedAt: new Date(NOW - 3 * HOUR_MS) });
    const contested = await t.factory.story({ room, review: 'CONTESTED', publishedAt: new Date(NOW - 2 * HOUR_MS) });
    const underReview = await t.factory.story({ room, review: 'UNDER_REVIEW', publishedAt: new Date(NOW - HOUR_MS) });
    await t.factory.story({ room, review: 'CLEAR' });
    await t.factory.story({ room, stage: 'GRADUATED', review: 'EMERGING' });
    const res = await t.get<Json>(`/v1/feed?room=${room}&mode=developing`);
    assert.deepEqual(
      res.body.items.map((i: Json) => i.id),
      [underReview.id, contested.id, emerging.id],
    );
    assert.ok(!res.body.items.some((i: Json) => i.id === other.id));
  });

  test('graduated orders by graduation time', async () => {
    const room = freshRoom();
    const early = await t.factory.story({
      room,
      stage: 'GRADUATED',
      review: 'CLEAR',
      publishedAt: new Date(NOW - HOUR_MS),
      graduatedAt: new Date(NOW - 10 * HOUR_MS),
    });
    const late = await t.factory.story({
      room,
      stage: 'GRADUATED',
      review: 'CLEAR',
      publishedAt: new Date(NOW - 20 * HOUR_MS),
      graduatedAt: new Date(NOW - 2 * HOUR_MS),
    });
    await t.factory.story({ room });
    const res = await t.get<Json>(`/v1/feed?room=${room}&mode=graduated`);
    assert.deepEqual(
      res.body.items.map((i: Json) => i.id),
      [late.id, early.id],
    );
  });

  test('limit is an integer from 1 to 50 (default 20); mode, room and lang are validated', async () => {
    const room = freshRoom();
    for (let i = 0; i < 22; i += 1) await t.factory.story({ room, trendingScore: i, sources: [] });
    const page = await t.get<Json>(`/v1/feed?room=${room}`);
    assert.equal(page.body.items.length, 20);
    assert.ok(page.body.nextCursor);
    assert.equal((await t.get<Json>(`/v1/feed?room=${room}&limit=50`)).body.items.length, 22);
    assert.equal((await t.get<Json>(`/v1/feed?room=${room}&limit=1`)).body.items.length, 1);
    for (const query of ['limit=0', 'limit=51', 'limit=2.5', 'limit=x', 'mode=popular', 'lang=it', 'room=Not%20A%20Room']) {
      const res = await t.get<Json>(`/v1/feed?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.code, 'VALIDATION_FAILED', query);
    }
  });

  test('a tampered or garbled cursor, or a cursor from another mode, is 400 INVALID_CURSOR', async () => {
    const room = freshRoom();
    for (let i = 0; i < 3; i += 1) await t.factory.story({ room, trendingScore: i });
    const first = await t.get<Json>(`/v1/feed?room=${room}&limit=1`);
    const cursor = first.body.nextCursor as string;
    const [payload, check] = cursor.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify(['feed:trending', 99, 'st_zzz'])).toString('base64url');
    for (const bad of [`${payload}.${check.slice(1)}A`, `${forged}.${check}`, 'garbage', '....', `${payload}`]) {
      const res = await t.get<Json>(`/v1/feed?room=${room}&cursor=${encodeURIComponent(bad)}`);
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.code, 'INVALID_CURSOR');
    }
    for (const mode of ['recent', 'graduated', 'developing']) {
      const res = await t.get<Json>(`/v1/feed?room=${room}&mode=${mode}&cursor=${cursor}`);
      assert.equal(res.status, 400, mode);
      assert.equal(res.body.code, 'INVALID_CURSOR');
    }
    assert.equal((await t.get(`/v1/feed?room=${room}&mode=trending&cursor=${cursor}`)).status, 200);
  });
});
