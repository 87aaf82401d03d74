import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { splitCjkQuery } from '../../src/newsroom/search/cjk-query.js';
import { RANK_WINDOW, ranked, SLICE_ROWS, type SearchFilters, type WindowBound } from '../../src/newsroom/search/repository.js';
import { createReadsTestApp, NOW, type ReadsTestApp } from '../helpers/newsroom-factory.js';
import type { Json } from '../helpers/json.js';

/**
 * A bigram query reads its window from the newest stories of the recent index first and asks the bigram index
 * for every match only when they hold too few (repository.ts, bigramCandidates). Whichever answers, the page is
 * the one the full query gives: here the slice is made small enough to answer, or to fall short, on a newsroom
 * of a few hundred stories. A slice of one story always falls short (RANK_WINDOW > 1): it is the full query.
 */

const MINUTE = 60_000;
const WORD = '太阳能';

interface Made {
  id: string;
  at: number;
  room: string;
  matches: boolean;
  visible: boolean;
}

describe('bigram search: the newest stories answer exactly what the full query answers', () => {
  let t: ReadsTestApp;
  const made: Made[] = [];
  before(async () => {
    t = await createReadsTestApp();
    const f = t.factory;
    const story = async (m: Made & { title: string; body: string; moderation?: 'QUARANTINED'; review?: 'CONTESTED' }) => {
      await f.story({
        id: m.id,
        lang: 'zh-Hans',
        room: m.room,
        title: m.title,
        summary: '本周消息。',
        body: m.body,
        claims: [{ text: '报告已经发布。' }],
        publishedAt: new Date(m.at),
        ...(m.moderation ? { moderation: m.moderation } : {}),
        ...(m.review ? { review: m.review } : {}),
      });
      made.push({ id: m.id, at: m.at, room: m.room, matches: m.matches, visible: m.visible });
    };
    // 210 science stories, two to a minute (the later one of a minute sorts first by id, as the index does): of
    // the newest 150, two in three match; older ones, one in five.
    for (let i = 0; i < 210; i += 1) {
      const matches = i < 150 ? i % 3 !== 2 : i % 5 === 0;
      await story({
        id: `st_sci_${String(1000 - i).padStart(4, '0')}`,
        at: NOW - (Math.floor(i / 2) + 1) * MINUTE,
        room: 'science',
        matches,
        visible: true,
        title: matches ? `城市${WORD}电站扩建` : '城市风能电站扩建',
        body: matches ? `${`${WORD}发电。`.repeat(1 + (i % 4))}${i % 4 === 0 ? 'solar plant' : ''}` : '风能发电。',
        ...(i % 7 === 0 ? { review: 'CONTESTED' as const } : {}),
      });
    }
    // Newer than all of them: 30 matches in another room, and one hidden by moderation (read by the slice, never
    // a match).
    for (let i = 0; i < 30; i += 1) {
      await story({
        id: `st_wld_${String(1000 - i).padStart(4, '0')}`,
        at: NOW - 10_000 - i * 1_000,
        room: 'world',
        matches: true,
        visible: true,
        title: `${WORD}价格下降`,
        body: `${WORD}。`,
      });
    }
    await story({
      id: 'st_sci_hidden',
      at: NOW - 30_000,
      room: 'science',
      matches: true,
      visible: false,
      title: `${WORD}谣言`,
      body: `${WORD}。`,
      moderation: 'QUARANTINED',
    });
    // a candidate is outside the recent index of published stories
    await f.story({ stage: 'CANDIDATE', lang: 'zh-Hans', room: 'science', title: `${WORD}草稿`, body: `${WORD}。` });
  });
  after(() => t.close());

  const search = (
    q: string,
    filters: SearchFilters,
    sliceRows: number,
    page: { after?: { rank: number; id: string }; window?: WindowBound } = {},
  ) => ranked(t.db, q, splitCjkQuery(q), 'zh-Hans', filters, page, 2 * RANK_WINDOW, sliceRows);

  /** The stories of the recent index a search in `room` reads, newest first (published, any moderation). */
  const recentOrder = (room: string | undefined) =>
    made.filter((m) => room === undefined || m.room === room).sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
  /** How many of the newest stories hold the newest RANK_WINDOW matches. */
  const reach = (room: string | undefined) => {
    const order = recentOrder(room);
    let found = 0;
    return order.findIndex((m) => m.matches && m.visible && ++found === RANK_WINDOW) + 1;
  };

  for (const room of ['science', undefined]) {
    test(`first page${room ? ` in one room` : ''}: a slice holding the window answers it, a shorter one falls back`, async () => {
      const full = await search(WORD, { room }, 1);
      assert.equal(full.sliced, false, 'a slice of one story falls back on the full query');
      const expected = recentOrder(room)
        .filter((m) => m.matches && m.visible)
        .slice(0, RANK_WINDOW);
      assert.deepEqual(new Set(full.rows.map((r) => r.id)), new Set(expected.map((m) => m.id)), 'the newest RANK_WINDOW matches');
      assert.equal(full.window?.id, expected.at(-1)!.id, 'the bound is the oldest of them');
      const holds = reach(room);
      assert.ok(holds > RANK_WINDOW && holds < 200, `${holds} stories hold the window`);
      for (const [sliceRows, sliced] of [
        [holds - 1, false],
        [holds, true],
        [holds + 1, true],
        [SLICE_ROWS, true],
      ] as const) {
        const got = await search(WORD, { room }, sliceRows);
        assert.equal(got.sliced, sliced, `slice of ${sliceRows}`);
        assert.deepEqual(got.rows, full.rows, `slice of ${sliceRows}: same rows, same ranks, same order`);
        assert.deepEqual(got.window, full.window, `slice of ${sliceRows}: same bound`);
      }
    });
  }

  test('a later page ranks every match from the bound: the slice answers when it reaches the bound, else falls back', async () => {
    const first = await search(WORD, { room: 'science' }, 1);
    const twentieth = first.rows[19]!;
    const page = { after: { rank: twentieth.rank, id: twentieth.id }, window: first.window! };
    const full = await search(WORD, { room: 'science' }, 1, page);
    assert.equal(full.sliced, false);
    assert.equal(full.rows.length, RANK_WINDOW - 20, 'the rest of the window');
    // the later page reads the stories from its bound on: the window's span, fewer than RANK_WINDOW * 4 matches
    const span = recentOrder('science').findIndex((m) => m.id === first.window!.id) + 1;
    for (const [sliceRows, sliced] of [
      [span - 1, false],
      [span, false],
      [span + 1, true],
      [SLICE_ROWS, true],
    ] as const) {
      const got = await search(WORD, { room: 'science' }, sliceRows, page);
      assert.equal(got.sliced, sliced, `slice of ${sliceRows}: ${sliced ? 'every story from the bound on' : 'full, too few matches'}`);
      assert.deepEqual(got.rows, full.rows, `slice of ${sliceRows}`);
      assert.deepEqual(got.window, full.window);
    }
  });

  test('a query with words besides the bigrams, and filters beyond the room, give the same page at any slice', async () => {
    for (const [q, filters] of [
      [`${WORD} solar`, {}],
      [WORD, { reviewStatus: 'CONTESTED' }],
      [WORD, { publicationStage: 'CANDIDATE' }],
      ['风能', { room: 'science' }],
    ] as [string, SearchFilters][]) {
      const full = await search(q, filters, 1);
      assert.ok(full.rows.length > 0, q);
      for (const sliceRows of [20, 120, 160, SLICE_ROWS]) {
        const got = await search(q, filters, sliceRows);
        assert.deepEqual(got.rows, full.rows, `${q} ${JSON.stringify(filters)}, slice of ${sliceRows}`);
        assert.deepEqual(got.window, full.window);
      }
    }
  });

  test('GET /v1/search serves the window the full query finds', async () => {
    const full = await search(WORD, { room: 'science' }, 1);
    const res = await t.get<Json>(`/v1/search?q=${encodeURIComponent(WORD)}&room=science&limit=50`);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.items.map((i: Json) => [i.id, i.rank]),
      full.rows.slice(0, 50).map((r) => [r.id, r.rank]),
    );
  });
});
