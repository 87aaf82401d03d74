import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { LedgerBucket } from '../../src/newsroom/rows.js';
import { fuzzRuns } from '../helpers/fuzz.js';
import { createReadsTestApp, HOUR_MS, NOW, type ReadsTestApp } from '../helpers/newsroom-factory.js';
import type { Json } from '../helpers/json.js';

const BUCKETS: LedgerBucket[] = ['agent-review', 'provisional', 'graduated', 'under-review'];
const EVENT_KEYS = [
  'createdAt',
  'editorialState',
  'id',
  'ledgerBucket',
  'promotionState',
  'rewardWindowActive',
  'storyId',
  'storyState',
  'title',
  'type',
];

describe('GET /v1/ledger/events', () => {
  let t: ReadsTestApp;
  before(async () => {
    t = await createReadsTestApp();
  });
  after(() => t.close());

  async function clearLedger() {
    // the ledger is a record the service never removes from: as the owner
    await t.database.owner.db.deleteFrom('ledger_events').execute();
  }

  async function walk(query: string, limit: number, between?: () => Promise<void>) {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await t.get<Json>(`/v1/ledger/events?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      ids.push(...res.body.events.map((e: Json) => e.id as string));
      cursor = res.body.nextCursor;
      if (between) await between();
    } while (cursor);
    return ids;
  }

  test('each event has exactly the documented fields, all present, newest first', async () => {
    await clearLedger();
    const story = await t.factory.story({ title: 'Ferry schedule' });
    const first = await t.factory.ledgerEvent(story.id, {
      type: 'UPDATE',
      bucket: 'provisional',
      storyState: 'PROVISIONAL',
      title: 'Published as provisional: Ferry schedule',
    });
    const second = await t.factory.ledgerEvent(story.id, {
      type: 'CHALLENGE',
      bucket: 'under-review',
      storyState: 'UNDER_REVIEW',
      editorialState: 'CHALLENGED',
      promotionState: 'PROVISIONAL',
      title: 'Under review',
    });
    const res = await t.get<Json>('/v1/ledger/events');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['events']);
    assert.deepEqual(
      res.body.events.map((e: Json) => e.id),
      [second.id, first.id],
    );
    for (const event of res.body.events) assert.deepEqual(Object.keys(event).sort(), EVENT_KEYS);
    assert.deepEqual(res.body.events[0], {
      id: second.id,
      storyId: story.id,
      title: 'Under review',
      type: 'CHALLENGE',
      createdAt: new Date(NOW).toISOString(),
      storyState: 'UNDER_REVIEW',
      editorialState: 'CHALLENGED',
      promotionState: 'PROVISIONAL',
      rewardWindowActive: true,
      ledgerBucket: 'under-review',
    });
  });

  test('rewardWindowActive is computed at read time from the story window: published_at <= now < closes', async () => {
    await clearLedger();
    const open = await t.factory.story({ publishedAt: new Date(NOW - HOUR_MS), rewardWindowEndsAt: new Date(NOW + HOUR_MS) });
    const closed = await t.factory.story({ publishedAt: new Date(NOW - 80 * HOUR_MS), rewardWindowEndsAt: new Date(NOW - 8 * HOUR_MS) });
    const e1 = await t.factory.ledgerEvent(open.id);
    const e2 = await t.factory.ledgerEvent(closed.id);
    const active = async () =>
      Object.fromEntries((await t.get<Json>('/v1/ledger/events')).body.events.map((e: Json) => [e.id, e.rewardWindowActive]));
    assert.deepEqual(await active(), { [e1.id]: true, [e2.id]: false });
    t.clock.advance(HOUR_MS);
    assert.deepEqual(await active(), { [e1.id]: false, [e2.id]: false }, 'closes exactly at reward_window_ends_at');
    t.clock.set(NOW);
  });

  test('filters names buckets (comma-separated); default and the full list are all buckets', async () => {
    await clearLedger();
    const story = await t.factory.story();
    const ids: Record<string, string> = {};
    for (const bucket of BUCKETS) ids[bucket] = (await t.factory.ledgerEvent(story.id, { bucket })).id;
    const of = async (query: string) => (await t.get<Json>(`/v1/ledger/events${query}`)).body.events.map((e: Json) => e.ledgerBucket);
    assert.deepEqual(await of(''), [...BUCKETS].reverse());
    assert.deepEqual(await of('?filters='), [...BUCKETS].reverse());
    assert.deepEqual(await of(`?filters=${BUCKETS.join(',')}`), [...BUCKETS].reverse());
    assert.deepEqual(await of('?filters=graduated'), ['graduated']);
    assert.deepEqual(await of('?filters=under-review,agent-review'), ['under-review', 'agent-review']);
    assert.deepEqual(await of('?filters=provisional,provisional'), ['provisional']);
  });

  test('an unknown bucket, a malformed list, or a limit outside 1..50 or not an integer is 400', async () => {
    for (const query of [
      'filters=retracted',
      'filters=graduated,',
      'filters=Graduated',
      'filters=graduated,,provisional',
      'limit=0',
      'limit=51',
      'limit=1.5',
      'limit=abc',
      'limit=-1',
    ]) {
      const res = await t.get<Json>(`/v1/ledger/events?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.code, 'VALIDATION_FAILED');
    }
    assert.equal((await t.get('/v1/ledger/events?limit=50')).status, 200);
    assert.equal((await t.get('/v1/ledger/events?limit=1')).status, 200);
  });

  test('limit defaults to 20; nextCursor is absent on the last page; a tampered cursor is 400 INVALID_CURSOR', async () => {
    await clearLedger();
    const story = await t.factory.story();
    for (let i = 0; i < 21; i += 1) await t.factory.ledgerEvent(story.id);
    const first = await t.get<Json>('/v1/ledger/events');
    assert.equal(first.body.events.length, 20);
    const cursor = first.body.nextCursor as string;
    const last = await t.get<Json>(`/v1/ledger/events?cursor=${cursor}`);
    assert.equal(last.body.events.length, 1);
    assert.equal('nextCursor' in last.body, false);
    const feedCursor = (await t.get<Json>('/v1/feed?limit=1')).body.nextCursor;
    for (const bad of [`${cursor.slice(0, 5)}x${cursor.slice(6)}`, 'abc.def', feedCursor].filter(Boolean)) {
      const res = await t.get<Json>(`/v1/ledger/events?cursor=${encodeURIComponent(bad)}`);
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'INVALID_CURSOR');
    }
  });

  test('events of stories hidden by moderation are not listed', async () => {
    await clearLedger();
    const visible = await t.factory.story();
    const hidden = await t.factory.story({ moderation: 'QUARANTINED' });
    const shown = await t.factory.ledgerEvent(visible.id);
    await t.factory.ledgerEvent(hidden.id);
    assert.deepEqual(
      (await t.get<Json>('/v1/ledger/events')).body.events.map((e: Json) => e.id),
      [shown.id],
    );
    assert.deepEqual(
      (await t.get<Json>('/v1/ledger/events?filters=provisional')).body.events.map((e: Json) => e.id),
      [shown.id],
    );
  });

  test('walking every page returns each event exactly once, newest first, also when events are added between pages', async () => {
    const eventSpec = fc.record({ bucket: fc.constantFrom(...BUCKETS), hidden: fc.boolean() });
    const filterArb = fc.option(fc.subarray(BUCKETS, { minLength: 1 }), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventSpec, { maxLength: 40 }),
        fc.array(fc.constantFrom(...BUCKETS), { maxLength: 8 }),
        filterArb,
        fc.integer({ min: 1, max: 9 }),
        async (events, added, filter, limit) => {
          await clearLedger();
          const visible = await t.factory.story({ sources: [] });
          const hidden = await t.factory.story({ sources: [], moderation: 'BLOCKED' });
          const seeded: { id: string; seq: string; bucket: LedgerBucket; hidden: boolean }[] = [];
          for (const e of events)
            seeded.push({
              ...(await t.factory.ledgerEvent(e.hidden ? hidden.id : visible.id, { bucket: e.bucket })),
              bucket: e.bucket,
              hidden: e.hidden,
            });
          const expected = seeded
            .filter((e) => !e.hidden && (!filter || filter.includes(e.bucket)))
            .sort((a, b) => Number(BigInt(b.seq) - BigInt(a.seq)))
            .map((e) => e.id);
          let next = 0;
          const walked = await walk(filter ? `&filters=${filter.join(',')}` : '', limit, async () => {
            const bucket = added[next];
            next += 1;
            if (bucket) await t.factory.ledgerEvent(visible.id, { bucket });
          });
          // New events are newer than any cursor already handed out, so the walk is exactly the first snapshot.
          assert.deepEqual(walked, expected);
        },
      ),
      { numRuns: fuzzRuns(100, 25) },
    );
  });
});
