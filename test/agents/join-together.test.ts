import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateAgentKey, signAgentRequest, signKeyProof } from '../../sdk/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { joinBot, joinedBot, post } from './support.js';

/**
 * Joins that arrive together are written by one statement (src/platform/db/bulk/statement-batcher.ts): each request
 * still gets its own answer, a bot sent twice is created once, and one refused key refuses only its own join.
 */
describe('POST /v1/agents/join: joins sent together', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('twelve new bots at once: each answered 202 with its own bot, written by shared statements', async () => {
    const keys = Array.from({ length: 12 }, () => generateAgentKey());
    const answers = await Promise.all(keys.map((key, i) => joinBot(t.app, key, `Together ${i}`)));
    answers.forEach((answer, i) => {
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
      assert.equal(answer.body.botId, keys[i]!.botId);
      assert.equal(answer.body.name, `Together ${i}`);
      assert.equal(answer.body.keyVersion, 1);
    });
    // one statement, one transaction: the bots it wrote share their creation time
    const times = new Set(answers.map((a) => a.body.createdAt as string));
    assert.ok(times.size < keys.length, `12 joins in ${times.size} statements`);
    const rows = await t.db.database.db
      .selectFrom('bot_keys')
      .select(['bot_id', 'public_key'])
      .where(
        'bot_id',
        'in',
        keys.map((k) => k.botId),
      )
      .execute();
    assert.deepEqual(new Map(rows.map((r) => [r.bot_id, r.public_key])), new Map(keys.map((k) => [k.botId, k.publicKey])));
  });

  test('the same bot twice at once: created once (202), the other answer is the existing bot (200)', async () => {
    const key = generateAgentKey();
    const answers = await Promise.all([joinBot(t.app, key, 'Twice'), joinBot(t.app, key, 'Twice')]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 202]);
    assert.deepEqual(
      answers.map((a) => a.body.botId),
      [key.botId, key.botId],
    );
  });

  test("a key that is another bot's added key is refused (409) and the joins sent with it are not", async () => {
    const owner = generateAgentKey();
    const added = generateAgentKey();
    await joinedBot(t.app, owner);
    const body = { botId: owner.botId, addKey: { publicKey: added.publicKey, keyProof: signKeyProof(added, owner.botId) } };
    const change = await post(
      t.app,
      '/v1/agents/join',
      body,
      signAgentRequest({ key: owner, method: 'POST', path: '/v1/agents/join', body }),
    );
    assert.equal(change.status, 202, JSON.stringify(change.body));

    const others = Array.from({ length: 5 }, () => generateAgentKey());
    const [taken, ...rest] = await Promise.all([joinBot(t.app, added, 'Thief'), ...others.map((key) => joinBot(t.app, key))]);
    assert.equal(taken!.status, 409);
    assert.equal(taken!.body.code, 'AGENT_KEY_IN_USE');
    assert.deepEqual(
      rest.map((a) => [a.status, a.body.botId]),
      others.map((k) => [202, k.botId]),
    );
    const thief = await t.db.database.db.selectFrom('bots').select('bot_id').where('bot_id', '=', added.botId).executeTakeFirst();
    assert.equal(thief, undefined);
  });
});
