import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { devHumanProof, worldIdSignalHash } from '../../sdk/index.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../helpers/app.js';
import { bindActor } from '../helpers/identity.js';
import { newsroomClient } from '../helpers/newsroom.js';
import { errorCode, errorPath, identityClient, MERKLE_ROOT, newNullifier } from './identity-helpers.js';

type Body = Record<string, unknown> & { code?: string; id?: string; details?: { path?: string }[] };

describe('POST /v1/worldid/verify: verified human actions, each accepted once by its operation', () => {
  let t: TestApp;
  let nr: ReturnType<typeof newsroomClient>;
  let id: ReturnType<typeof identityClient>;
  before(async () => {
    t = await createTestApp();
    nr = newsroomClient(await t.listen());
    id = identityClient(nr.client);
  });
  after(() => t.close());

  const db = () => t.app.ctx.database.db;
  const human = (path: string, actorId: string, linkedHumanId: string | undefined, body: Record<string, unknown>) =>
    nr.client.humanWrite<Body>(TEST_SECRET, path, { ...id.actor(actorId, linkedHumanId), ...body });
  const action = (actionId: string) =>
    db().selectFrom('verified_human_actions').selectAll().where('id', '=', actionId).executeTakeFirstOrThrow();

  test('only graduate:, reward: and flag_high_severity: are accepted; governance and control-plane actions are 400', async () => {
    const { linkedHumanId } = await id.login('reader-formats');
    for (const bad of [
      'governance_ratify:gp_1',
      'control_plane_approve:cp_1',
      'svc-login',
      'graduate:',
      'graduate:st_1:x',
      'reward:st 1',
      'GRADUATE:st_1',
      'flag:cl_1',
    ]) {
      const res = await id.verifyAction('reader-formats', bad, { linkedHumanId });
      assert.equal(res.status, 400, bad);
      assert.equal(errorCode(res), 'HUMAN_ACTION_NOT_ALLOWED', bad);
      assert.equal(errorPath(res), '/action');
    }
  });

  test('the target must exist: an unknown or unpublished story, an unknown claim or one of an old packet is 404', async () => {
    await id.login('reader-targets');
    const candidate = await nr.submit(await nr.joinBot());
    for (const missing of [
      'graduate:st_nope',
      'reward:st_nope',
      'flag_high_severity:cl_nope',
      `reward:${candidate.storyId}`,
      `flag_high_severity:${candidate.packet.claims[0]!.id}`,
    ]) {
      const res = await id.verifyAction('reader-targets', missing);
      assert.equal(res.status, 404, missing);
      assert.equal(errorCode(res), 'NOT_FOUND');
    }
  });

  test('an actor that never logged in is 403 HUMAN_LOGIN_REQUIRED; a bad proof 403 HUMAN_PROOF_INVALID', async () => {
    const story = await nr.publishedStory();
    const anonymous = await id.verifyAction('reader-anonymous', `reward:${story.storyId}`);
    assert.equal(anonymous.status, 403);
    assert.equal(errorCode(anonymous), 'HUMAN_LOGIN_REQUIRED');
    await id.login('reader-forger');
    const forged = devHumanProof({
      provider: 'world_id',
      action: `reward:${story.storyId}x`,
      nullifierHash: newNullifier(),
      merkleRoot: MERKLE_ROOT,
    });
    const res = await nr.client.verifyHumanAction(TEST_SECRET, id.actor('reader-forger'), { action: `reward:${story.storyId}`, ...forged });
    assert.equal(res.status, 403);
    assert.equal(errorCode(res), 'HUMAN_PROOF_INVALID');
  });

  test('a proof bound to a signal verifies with that signal only; a signal that is not whole hex bytes is 400', async () => {
    const story = await nr.publishedStory();
    await id.login('reader-signal');
    const action = `reward:${story.storyId}`;
    const proof = devHumanProof({
      provider: 'world_id',
      action,
      nullifierHash: newNullifier(),
      merkleRoot: MERKLE_ROOT,
      signalHash: worldIdSignalHash('reader-signal'),
    });
    const unsigned = await nr.client.verifyHumanAction(TEST_SECRET, id.actor('reader-signal'), { action, ...proof });
    assert.equal(errorCode(unsigned), 'HUMAN_PROOF_INVALID', 'no signal: the proof must be for hashToField("")');
    const odd = await nr.client.verifyHumanAction(TEST_SECRET, id.actor('reader-signal'), { action, ...proof, signal: '0xabc' });
    assert.equal(odd.status, 400);
    assert.equal(errorPath(odd), '/signal');
    const signed = await nr.client.verifyHumanAction(TEST_SECRET, id.actor('reader-signal'), { action, ...proof, signal: 'reader-signal' });
    assert.equal(signed.status, 202, JSON.stringify(signed.body));
  });

  test('a HIGH flag consumes flag_high_severity:<claimId> of its flagger once; the same proof again is 409 NULLIFIER_REUSED', async () => {
    const story = await nr.publishedStory();
    const claimId = story.packet.claims[0]!.id;
    const person = newNullifier();
    const { linkedHumanId } = await id.login('flagger-1', person);
    await id.login('flagger-2', person);
    const nullifierHash = newNullifier();
    const verified = await id.verifyAction('flagger-1', `flag_high_severity:${claimId}`, { nullifierHash, linkedHumanId });
    assert.equal(verified.status, 202, JSON.stringify(verified.body));
    assert.equal(verified.body.linkedHumanId, linkedHumanId, "the action is the actor's bound human's");
    assert.equal(verified.body.tier, 'L3');
    assert.equal(verified.body.provider, 'world_id');
    const replay = await id.verifyAction('flagger-1', `flag_high_severity:${claimId}`, { nullifierHash, linkedHumanId });
    assert.equal(replay.status, 409);
    assert.equal(errorCode(replay), 'NULLIFIER_REUSED');

    const flag = { severity: 'HIGH', reason: 'The start date is wrong', claimId };
    const high = await human(`/v1/stories/${story.storyId}/flags`, 'flagger-1', linkedHumanId, flag);
    assert.equal(high.status, 202, JSON.stringify(high.body));
    assert.equal(high.body.verifiedActionId, verified.body.id);
    assert.equal(high.body.reviewStatus, 'UNDER_REVIEW');
    assert.equal((await action(verified.body.id)).consumed_by, `flag:${story.storyId}`);
    const secondUse = await human(`/v1/stories/${story.storyId}/flags`, 'flagger-2', linkedHumanId, flag);
    assert.equal(secondUse.status, 409);
    assert.equal(secondUse.body.code, 'HUMAN_VERIFICATION_REQUIRED', 'the same person from another actorId: the action is used up');
  });

  test("another human's flag action is not the flagger's", async () => {
    const story = await nr.publishedStory();
    const claimId = story.packet.claims[1]!.id;
    const owner = await id.login('claim-owner');
    const other = await id.login('claim-other');
    assert.equal(
      (await id.verifyAction('claim-owner', `flag_high_severity:${claimId}`, { linkedHumanId: owner.linkedHumanId })).status,
      202,
    );
    const res = await human(`/v1/stories/${story.storyId}/flags`, 'claim-other', other.linkedHumanId, {
      severity: 'HIGH',
      reason: 'x',
      claimId,
    });
    assert.equal(res.body.code, 'HUMAN_VERIFICATION_REQUIRED');
  });

  test('graduate:<storyId> graduates a story that meets the gate at once, consuming the action; a second proof stays open', async () => {
    const story = await nr.publishedStory();
    for (const bot of await Promise.all(Array.from({ length: 5 }, () => nr.joinBot())))
      await nr.review(bot, 'attestations', story.storyId, story.hash);
    const stage = async () =>
      (await db().selectFrom('stories').select('publication_stage').where('id', '=', story.storyId).executeTakeFirstOrThrow())
        .publication_stage;
    assert.equal(await stage(), 'PROVISIONAL', 'gate met, no human action yet');
    await id.login('editor-1');
    const verified = await id.verifyAction('editor-1', `graduate:${story.storyId}`);
    assert.equal(verified.status, 202, JSON.stringify(verified.body));
    assert.equal(await stage(), 'GRADUATED');
    assert.equal((await action(verified.body.id)).consumed_by, `story:${story.storyId}`);
    const ledger = await db()
      .selectFrom('ledger_events')
      .select(['type', 'story_state'])
      .where('story_id', '=', story.storyId)
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    assert.deepEqual(ledger, { type: 'UPDATE', story_state: 'GRADUATED' });

    await id.login('editor-2');
    const late = await id.verifyAction('editor-2', `graduate:${story.storyId}`);
    assert.equal(late.status, 202);
    assert.equal((await action(late.body.id)).consumed_at, null, 'a graduated story consumes no second action');
  });

  test('graduate:<storyId> before the gate is met waits, and the write that meets the gate consumes it', async () => {
    const story = await nr.publishedStory();
    await id.login('editor-3');
    const verified = await id.verifyAction('editor-3', `graduate:${story.storyId}`);
    assert.equal(verified.status, 202);
    assert.equal((await action(verified.body.id)).consumed_at, null);
    for (const bot of await Promise.all(Array.from({ length: 5 }, () => nr.joinBot())))
      await nr.review(bot, 'attestations', story.storyId, story.hash);
    assert.equal((await action(verified.body.id)).consumed_by, `story:${story.storyId}`);
  });

  test("a reward vote carries its voter's tier weight only by consuming reward:<storyId> of the voter's human, once", async () => {
    const story = await nr.publishedStory();
    const person = newNullifier();
    const { linkedHumanId } = await id.login('voter-1', person);
    await id.login('voter-2', person);
    const stranger = await id.login('voter-3');
    const vote = (actorId: string, lh: string) => human(`/v1/stories/${story.storyId}/reward-votes`, actorId, lh, { vote: 'UP' });

    const nullifierHash = newNullifier();
    const verified = await id.verifyAction('voter-1', `reward:${story.storyId}`, { nullifierHash, linkedHumanId });
    assert.equal(verified.status, 202);
    const strangerVote = await vote('voter-3', stranger.linkedHumanId);
    assert.deepEqual(
      [strangerVote.status, strangerVote.body.weight, strangerVote.body.verifiedActionId],
      [202, 1, null],
      "another human's action does not weigh for them",
    );
    const weighted = await vote('voter-1', linkedHumanId);
    assert.deepEqual([weighted.status, weighted.body.weight, weighted.body.verifiedActionId], [202, 3, verified.body.id]);
    assert.equal((await action(verified.body.id)).consumed_by, `reward_vote:${String(weighted.body.id)}`);
    const sameHuman = await vote('voter-2', linkedHumanId);
    assert.deepEqual(
      [sameHuman.status, sameHuman.body.weight, sameHuman.body.verifiedActionId],
      [202, 1, null],
      'the same person from another actorId: used up',
    );
    const replay = await id.verifyAction('voter-2', `reward:${story.storyId}`, { nullifierHash, linkedHumanId });
    assert.equal(errorCode(replay), 'NULLIFIER_REUSED', 'the same proof cannot be recorded again');
    const consensus = await nr.client.get<{ snapshot: { rewardVotes: { weightUp: number } } }>(`/v1/stories/${story.storyId}/consensus`);
    assert.equal(consensus.body.snapshot.rewardVotes.weightUp, 5, '3 + 1 + 1');
  });

  test('an operator-made binding (no session) keeps none after a proof; a verified proof renews a session otherwise', async () => {
    const story = await nr.publishedStory();
    await bindActor(t.db.database, 'desk-editor', 'h_desk_editor');
    const res = await id.verifyAction('desk-editor', `reward:${story.storyId}`, { linkedHumanId: 'h_desk_editor' });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.sessionExpiresAt, null);
    const session = await id.login('reader-renew');
    await db()
      .updateTable('actor_bindings')
      .set({ expires_at: new Date(Date.now() + 60_000) })
      .where('actor_id', '=', 'reader-renew')
      .execute();
    const renewed = await id.verifyAction('reader-renew', `reward:${story.storyId}`, { linkedHumanId: session.linkedHumanId });
    assert.equal(renewed.status, 202);
    assert.ok(Date.parse(renewed.body.sessionExpiresAt!) > Date.now() + 86_400_000);
  });
});
