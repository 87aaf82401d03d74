import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, TEST_SECRET, type TestApp } from '../helpers/app.js';
import { needsPostgres } from '../helpers/needs.js';
import { newsroomClient } from '../helpers/newsroom.js';

/**
 * Uniqueness rules hold under concurrent requests because the database enforces them, not the code.
 * PGlite is a single session that runs one query at a time, so only a real PostgreSQL shows anything here.
 */
const skip = needsPostgres('concurrent writes race only on a real PostgreSQL (PGlite is one session)');

describe('concurrent writes', () => {
  let t: TestApp;
  let nr: ReturnType<typeof newsroomClient>;
  before(async () => {
    t = await createTestApp();
    nr = newsroomClient(await t.listen());
  });
  after(() => t.close());

  test('the same packet submitted ten times at once makes one candidate', { skip }, async () => {
    const bot = await nr.joinBot();
    const body = { botId: bot.botId, verified: false, ...nr.packet() };
    const results = await Promise.all(
      Array.from({ length: 10 }, () => nr.client.agentWrite<{ hash: string; storyId: string }>(bot, '/v1/candidates', body)),
    );
    assert.equal(results.filter((r) => r.status === 202).length, 1);
    assert.ok(results.every((r) => r.status === 202 || r.status === 200));
    assert.equal(new Set(results.map((r) => r.body.storyId)).size, 1);
    const count = await t.app.ctx.database.db
      .selectFrom('stories')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('title', '=', body.title)
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 1);
  });

  test('one reader casting five reward votes at once gets exactly one accepted', { skip }, async () => {
    const story = await nr.publishedStory();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        nr.client.humanWrite(TEST_SECRET, `/v1/stories/${story.storyId}/reward-votes`, {
          actorId: 'racer',
          verified: false,
          vote: i % 2 ? 'UP' : 'DOWN',
        }),
      ),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [202, 409, 409, 409, 409]);
  });

  test('many bots attesting at once are all counted in the snapshot', { skip }, async () => {
    const story = await nr.publishedStory();
    const bots = await Promise.all(Array.from({ length: 6 }, () => nr.joinBot()));
    const results = await Promise.all(bots.map((b) => nr.review(b, 'attestations', story.storyId, story.hash)));
    assert.ok(results.every((r) => r.status === 202));
    const row = await t.app.ctx.database.db
      .selectFrom('stories')
      .select(['attestation_count', 'review_status'])
      .where('id', '=', story.storyId)
      .executeTakeFirstOrThrow();
    assert.equal(row.attestation_count, 6);
    assert.equal(row.review_status, 'CLEAR');
  });
});
