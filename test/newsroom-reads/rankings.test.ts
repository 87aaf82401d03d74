import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createReadsTestApp, HOUR_MS, NOW } from '../helpers/newsroom-factory.js';
import type { Json } from '../helpers/json.js';

const DAY_MS = 24 * HOUR_MS;
const bot = (c: string) => `bot_${c.repeat(32)}`;

describe('GET /v1/rankings/bots', () => {
  test('scores the last seven days: published +5, graduated +10, confirmed reviews +1, accepted revisions +3, retracted -5; ties by botId', async () => {
    const t = await createReadsTestApp();
    try {
      const f = t.factory;
      const [A, B, C, D, E] = [bot('a'), bot('b'), bot('c'), bot('d'), bot('e')];
      await f.bot({ botId: A, name: 'Harbour Desk' });
      await f.bot({ botId: B, name: 'Fact Sweep' });
      await f.bot({ botId: D, name: 'Source Hound' });
      const inWindow = new Date(NOW - 2 * DAY_MS);

      const clear = await f.story({ authorBotId: A, review: 'CLEAR', publishedAt: inWindow });
      const graduated = await f.story({
        authorBotId: A,
        stage: 'GRADUATED',
        review: 'CLEAR',
        publishedAt: inWindow,
        graduatedAt: new Date(NOW - DAY_MS),
      });
      const old = await f.story({ authorBotId: A, review: 'CLEAR', publishedAt: new Date(NOW - 8 * DAY_MS) });
      const retracted = await f.story({ authorBotId: A, review: 'RETRACTED', publishedAt: inWindow });
      await f.ledgerEvent(retracted.id, {
        type: 'RETRACTION',
        bucket: 'under-review',
        storyState: 'UNDER_REVIEW',
        createdAt: new Date(NOW - DAY_MS),
      });
      const contested = await f.story({ authorBotId: E, review: 'CONTESTED', publishedAt: new Date(NOW - 10 * DAY_MS) });

      await f.review(clear, { botId: B, kind: 'ATTESTATION', createdAt: new Date(NOW - 7 * DAY_MS) }); // window start: included
      await f.review(graduated, { botId: B, kind: 'ATTESTATION', createdAt: inWindow });
      await f.review(contested, { botId: B, kind: 'ATTESTATION', createdAt: inWindow }); // story ended CONTESTED: no point
      await f.review(contested, { botId: B, kind: 'OBJECTION', packetHash: 'f'.repeat(64), createdAt: inWindow });
      await f.review(clear, { botId: B, kind: 'OBJECTION', packetHash: 'e'.repeat(64), createdAt: inWindow }); // story ended CLEAR: no point
      await f.review(old, { botId: B, kind: 'ATTESTATION', createdAt: new Date(NOW - 8 * DAY_MS) }); // before the window
      await f.review(graduated, { botId: B, kind: 'ATTESTATION', packetHash: 'd'.repeat(64), createdAt: new Date(NOW) }); // window end: excluded

      await f.proposal(clear, { botId: C, status: 'ACCEPTED', resolvedAt: inWindow });
      await f.proposal(clear, { botId: C, status: 'ACCEPTED', resolvedAt: new Date(NOW - 9 * DAY_MS) });
      await f.proposal(clear, { botId: C, status: 'REJECTED', resolvedAt: inWindow });

      await f.review(retracted, { botId: D, kind: 'OBJECTION', createdAt: inWindow });
      await f.review(clear, { botId: D, kind: 'ATTESTATION', packetHash: 'c'.repeat(64), createdAt: inWindow });
      await f.review(contested, { botId: D, kind: 'OBJECTION', packetHash: 'b'.repeat(64), createdAt: inWindow });

      const res = await t.get<Json>('/v1/rankings/bots');
      assert.equal(res.status, 200);
      assert.equal(res.body.windowEnd, new Date(NOW).toISOString());
      assert.equal(res.body.windowStart, new Date(NOW - 7 * DAY_MS).toISOString());
      assert.deepEqual(res.body.scoring, {
        storiesPublished: 5,
        storiesGraduated: 10,
        confirmedAttestations: 1,
        confirmedObjections: 1,
        acceptedRevisions: 3,
        storiesRetracted: -5,
      });
      const zero = {
        storiesPublished: 0,
        storiesGraduated: 0,
        confirmedAttestations: 0,
        confirmedObjections: 0,
        acceptedRevisions: 0,
        storiesRetracted: 0,
      };
      assert.deepEqual(res.body.items, [
        {
          rank: 1,
          botId: A,
          name: 'Harbour Desk',
          score: 20,
          breakdown: { ...zero, storiesPublished: 3, storiesGraduated: 1, storiesRetracted: 1 },
        },
        { rank: 2, botId: B, name: 'Fact Sweep', score: 3, breakdown: { ...zero, confirmedAttestations: 2, confirmedObjections: 1 } },
        { rank: 3, botId: C, name: C, score: 3, breakdown: { ...zero, acceptedRevisions: 1 } },
        { rank: 4, botId: D, name: 'Source Hound', score: 3, breakdown: { ...zero, confirmedAttestations: 1, confirmedObjections: 2 } },
      ]);

      t.clock.advance(8 * DAY_MS);
      assert.deepEqual((await t.get<Json>('/v1/rankings/bots')).body.items, [], 'a week later nothing is in the window');
    } finally {
      await t.close();
    }
  });

  test('lists at most 100 bots', async () => {
    const t = await createReadsTestApp();
    try {
      for (let i = 0; i < 103; i += 1)
        await t.factory.story({
          authorBotId: `bot_${i.toString(16).padStart(32, '0')}`,
          sources: [],
          publishedAt: new Date(NOW - HOUR_MS),
        });
      const res = await t.get<Json>('/v1/rankings/bots');
      assert.equal(res.body.items.length, 100);
      assert.deepEqual(
        res.body.items.map((i: Json) => i.rank),
        Array.from({ length: 100 }, (_, i) => i + 1),
      );
      assert.equal(res.body.items[0].botId, `bot_${'0'.repeat(32)}`, 'equal scores: botId order');
    } finally {
      await t.close();
    }
  });
});
