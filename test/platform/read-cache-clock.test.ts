import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Type } from '@sinclair/typebox';
import Fastify from 'fastify';
import { manualClock } from '../../src/platform/clock.js';
import { clockLifeMs, createMemoryReadGeneration, readCachePlugin } from '../../src/platform/read-cache.js';
import { createReadsTestApp, NOW } from '../helpers/newsroom-factory.js';

// Bodies the clock changes only at known instants (story detail: its reward window) live until the first of them
// and at most READ_CACHE_STORY_TTL_MS; every other body lives at most READ_CACHE_TTL_MS.

describe('read cache: bodies whose clock changes are known', () => {
  test("a story's detail outlives READ_CACHE_TTL_MS up to READ_CACHE_STORY_TTL_MS; its evidence does not; a write on it still ends it", async () => {
    const t = await createReadsTestApp({ READ_CACHE_TTL_MS: '2000', READ_CACHE_STORY_TTL_MS: '20000' });
    try {
      const story = await t.factory.story();
      const detail = `/v1/stories/${story.id}`;
      const versions = `${detail}/versions`;
      const state = async (url: string) => (await t.app.inject({ method: 'GET', url })).headers['x-read-cache'];
      assert.deepEqual([await state(detail), await state(versions)], ['miss', 'miss']);
      t.clock.advance(2_001);
      assert.deepEqual([await state(detail), await state(versions)], ['hit', 'miss'], 'past READ_CACHE_TTL_MS');
      t.clock.advance(16_000 - 2_001 - 1);
      assert.equal(await state(detail), 'hit', 'four fifths of READ_CACHE_STORY_TTL_MS');
      t.clock.advance(4_002);
      assert.equal(await state(detail), 'miss', 'past READ_CACHE_STORY_TTL_MS');
      assert.equal(await state(detail), 'hit');
      await t.app.ctx.readGeneration.bump([story.id]);
      assert.equal(await state(detail), 'miss', 'a write on the story');
    } finally {
      await t.close();
    }
  });

  test('a story whose reward window closes reads active: false from that instant, not from when its body would expire', async () => {
    const t = await createReadsTestApp();
    try {
      const story = await t.factory.story({ rewardWindowEndsAt: new Date(NOW + 5_000) });
      const read = async () => {
        const res = await t.app.inject({ method: 'GET', url: `/v1/stories/${story.id}` });
        return [res.headers['x-read-cache'], (res.json() as { rewardWindow: { active: boolean } }).rewardWindow.active];
      };
      assert.deepEqual(await read(), ['miss', true]);
      t.clock.advance(4_999);
      assert.deepEqual(await read(), ['hit', true]);
      t.clock.advance(1);
      assert.deepEqual(await read(), ['miss', false]);
      // no instant is ahead any more: kept as long as any story body
      t.clock.advance(60_000);
      assert.deepEqual(await read(), ['hit', false]);
    } finally {
      await t.close();
    }
  });

  test('a body the clock changed while it was being read is not kept', async () => {
    const clock = manualClock(NOW);
    const app = Fastify({ logger: false });
    await app.register(readCachePlugin, {
      generation: createMemoryReadGeneration(clock),
      clock,
      ttlMs: 30_000,
      clockKnownTtlMs: 300_000,
      maxBytes: 1_000_000,
    });
    const strict = Type.Object({}, { additionalProperties: false });
    const changeAt = NOW + 1_000;
    let reads = 0;
    app.get('/test/slow', { config: { readCache: true }, schema: { querystring: strict } }, async (request) => {
      reads += 1;
      // the read takes long enough for the change to pass while the body is being made
      clock.advance(reads === 1 ? 1_500 : 0);
      request.readCacheClockChanges = [changeAt];
      return { changed: clock.now() >= changeAt };
    });
    try {
      const states: unknown[] = [];
      for (let i = 0; i < 3; i += 1) states.push((await app.inject({ method: 'GET', url: '/test/slow' })).headers['x-read-cache']);
      // the first body was not kept; the second, read after the change, is kept with no instant ahead of it
      assert.deepEqual(states, ['miss', 'miss', 'hit']);
      assert.equal(reads, 2);
    } finally {
      await app.close();
    }
  });

  test('clockLifeMs: until the first instant after the read began; 0 when one passed during the read', () => {
    assert.equal(clockLifeMs([], 100, 100), Infinity);
    assert.equal(clockLifeMs([50, 400, 250], 100, 120), 130, 'the first instant after the read began');
    assert.equal(clockLifeMs([110, 400], 100, 120), 0, 'an instant passed while the body was read');
    assert.equal(clockLifeMs([100], 100, 100), Infinity, 'an instant at the read start is behind it');
  });
});
