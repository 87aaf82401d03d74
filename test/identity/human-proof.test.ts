import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { devHumanProof } from '../../sdk/index.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../helpers/app.js';
import { needsPostgres } from '../helpers/needs.js';
import { newsroomClient } from '../helpers/newsroom.js';
import { errorCode, identityClient, MERKLE_ROOT, newNullifier } from './identity-helpers.js';

type Body = Record<string, unknown> & { code?: string; details?: { path?: string }[] };

describe('POST /v1/human-proof/verify: world_id (L3), passport and phone (L2)', () => {
  let t: TestApp;
  let nr: ReturnType<typeof newsroomClient>;
  let id: ReturnType<typeof identityClient>;
  let storyId: string;
  before(async () => {
    t = await createTestApp();
    nr = newsroomClient(await t.listen());
    id = identityClient(nr.client);
    storyId = (await nr.publishedStory()).storyId;
  });
  after(() => t.close());

  const db = () => t.app.ctx.database.db;
  const tierOf = async (linkedHumanId: string) =>
    (await db().selectFrom('human_identities').select('tier').where('linked_human_id', '=', linkedHumanId).executeTakeFirstOrThrow()).tier;

  test('an unknown provider is 400', async () => {
    for (const provider of ['email', 'WORLD_ID', '']) {
      const proof = devHumanProof({ provider: 'passport', action: `reward:${storyId}`, nullifierHash: 'n-1', merkleRoot: MERKLE_ROOT });
      const res = await nr.client.humanWrite<Body>(TEST_SECRET, '/v1/human-proof/verify', {
        ...id.actor('reader-provider'),
        provider,
        action: `reward:${storyId}`,
        ...proof,
      });
      assert.equal(res.status, 400, provider);
      assert.equal(res.body.code, 'VALIDATION_FAILED');
    }
  });

  test('a secondary proof from an actor with no human records an L2 human and binds the actor to it', async () => {
    const nullifierHash = `passport-${newNullifier()}`;
    const res = await id.verifyAction('reader-passport', `reward:${storyId}`, { provider: 'passport', nullifierHash });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const expected = `h_${createHash('sha256').update(`passport:${nullifierHash}`).digest('hex').slice(0, 32)}`;
    assert.deepEqual([res.body.linkedHumanId, res.body.tier, res.body.provider], [expected, 'L2', 'passport']);
    assert.equal(await tierOf(expected), 'L2');
    const vote = await nr.client.humanWrite<Body>(TEST_SECRET, `/v1/stories/${storyId}/reward-votes`, {
      ...id.actor('reader-passport', expected),
      vote: 'UP',
    });
    assert.equal(vote.status, 202, 'the new linkedHumanId counts for the actor');
    assert.deepEqual([vote.body.tier, vote.body.weight], ['L2', 2], 'and its reward action gives the L2 weight');
  });

  test('a proof raises the tier of the actor’s bound human and never lowers it', async () => {
    const first = await id.verifyAction('reader-raise', `graduate:${storyId}`, { provider: 'phone' });
    assert.equal(first.body.tier, 'L2');
    const lh = first.body.linkedHumanId;
    const worldId = await id.verifyAction('reader-raise', `reward:${storyId}`, { provider: 'world_id', linkedHumanId: lh });
    assert.equal(worldId.status, 202, JSON.stringify(worldId.body));
    assert.deepEqual([worldId.body.linkedHumanId, worldId.body.tier], [lh, 'L3'], 'the same human, raised');
    const passport = await id.verifyAction('reader-raise', `graduate:${storyId}`, { provider: 'passport', linkedHumanId: lh });
    assert.equal(passport.status, 202);
    assert.equal(passport.body.tier, 'L3', 'a secondary proof does not lower an L3 human');
    assert.equal(await tierOf(lh), 'L3');
  });

  test('world_id from an actor with no human is 403 HUMAN_LOGIN_REQUIRED; after a login it raises that human', async () => {
    const res = await id.verifyAction('reader-wid', `reward:${storyId}`, { provider: 'world_id' });
    assert.equal(res.status, 403);
    assert.equal(errorCode(res), 'HUMAN_LOGIN_REQUIRED');
    const { linkedHumanId } = await id.login('reader-wid');
    const ok = await id.verifyAction('reader-wid', `reward:${storyId}`, { provider: 'world_id' });
    assert.equal(ok.status, 202);
    assert.equal(ok.body.linkedHumanId, linkedHumanId, 'the bound human, whether or not the request names it');
  });

  test('the triple (provider, action, nullifier_hash) is used once; another provider or action is another triple', async () => {
    const nullifierHash = newNullifier();
    const action = `reward:${storyId}`;
    assert.equal((await id.verifyAction('reader-triple', action, { provider: 'passport', nullifierHash })).status, 202);
    const again = await id.verifyAction('reader-triple', action, { provider: 'passport', nullifierHash });
    assert.equal(again.status, 409);
    assert.equal(errorCode(again), 'NULLIFIER_REUSED');
    const otherActor = await id.verifyAction('reader-triple-2', action, { provider: 'passport', nullifierHash });
    assert.equal(errorCode(otherActor), 'NULLIFIER_REUSED', 'whoever sends it');
    assert.equal((await id.verifyAction('reader-triple', action, { provider: 'phone', nullifierHash })).status, 202);
    assert.equal((await id.verifyAction('reader-triple', `graduate:${storyId}`, { provider: 'passport', nullifierHash })).status, 202);
  });

  test('a proof that does not verify is 403 HUMAN_PROOF_INVALID and records nothing', async () => {
    const nullifierHash = newNullifier();
    const proof = devHumanProof({ provider: 'phone', action: `reward:${storyId}`, nullifierHash, merkleRoot: MERKLE_ROOT });
    const res = await nr.client.verifyHumanAction(TEST_SECRET, id.actor('reader-invalid'), {
      provider: 'passport',
      action: `reward:${storyId}`,
      ...proof,
    });
    assert.equal(res.status, 403);
    assert.equal(errorCode(res), 'HUMAN_PROOF_INVALID');
    const rows = await db().selectFrom('verified_human_actions').select('id').where('nullifier_hash', '=', nullifierHash).execute();
    assert.equal(rows.length, 0);
    assert.equal(
      await db().selectFrom('actor_bindings').select('actor_id').where('actor_id', '=', 'reader-invalid').executeTakeFirst(),
      undefined,
    );
  });

  test(
    'parallel requests with one triple: the database constraint accepts exactly one',
    { skip: needsPostgres('PGlite runs one query at a time, so nothing races') },
    async () => {
      const nullifierHash = newNullifier();
      const action = `graduate:${storyId}`;
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => id.verifyAction(`racer-${i}`, action, { provider: 'passport', nullifierHash })),
      );
      const statuses = results.map((r) => r.status).sort();
      assert.deepEqual(statuses, [202, ...Array.from({ length: 9 }, () => 409)]);
      assert.ok(results.filter((r) => r.status === 409).every((r) => errorCode(r) === 'NULLIFIER_REUSED'));
      const rows = await db()
        .selectFrom('verified_human_actions')
        .select('id')
        .where('provider', '=', 'passport')
        .where('action', '=', action)
        .where('nullifier_hash', '=', nullifierHash)
        .execute();
      assert.equal(rows.length, 1);
      const bound = await db().selectFrom('actor_bindings').select('actor_id').where('actor_id', 'like', 'racer-%').execute();
      assert.equal(bound.length, 1, 'the refused requests bound nobody (their transactions rolled back)');
    },
  );
});
