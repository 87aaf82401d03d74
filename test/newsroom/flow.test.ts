import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { recordVerifiedHumanAction } from '../../src/identity/humans/human-actions.js';
import { bindActor } from '../helpers/identity.js';
import { createTestApp, TEST_OPS_TOKEN, TEST_SECRET, type TestApp } from '../helpers/app.js';
import { newsroomClient } from '../helpers/newsroom.js';

type Nr = ReturnType<typeof newsroomClient>;

describe('newsroom flow: candidate to published, reviewed story', () => {
  let t: TestApp;
  let nr: Nr;
  before(async () => {
    t = await createTestApp();
    nr = newsroomClient(await t.listen());
    await bindActor(t.db.database, 'reader-2', 'h_reader2');
    await bindActor(t.db.database, 'reader-3', 'h_reader3');
  });
  after(() => t.close());

  async function ledger(storyId: string) {
    return t.app.ctx.database.db.selectFrom('ledger_events').selectAll().where('story_id', '=', storyId).orderBy('seq').execute();
  }
  const human = (path: string, body: Record<string, unknown>) =>
    nr.client.humanWrite<Record<string, unknown> & { code?: string }>(TEST_SECRET, path, {
      actorId: 'reader-1',
      verified: false,
      ...body,
    } as never);

  test('a bot submits a candidate; the same packet again is the same candidate; status and evidence need the API key', async () => {
    const bot = await nr.joinBot();
    const packet = nr.packet();
    const first = await nr.client.agentWrite<{
      hash: string;
      storyId: string;
      publicationStage: string;
      packet: { claims: { id: string }[] };
    }>(bot, '/v1/candidates', { botId: bot.botId, verified: false, ...packet });
    assert.equal(first.status, 202);
    assert.match(first.body.hash, /^[0-9a-f]{64}$/);
    assert.equal(first.body.publicationStage, 'CANDIDATE');
    assert.ok(
      first.body.packet.claims.every((c) => c.id.startsWith('cl_')),
      'claim ids are filled in',
    );
    const again = await nr.client.agentWrite<{ hash: string; storyId: string }>(bot, '/v1/candidates', {
      botId: bot.botId,
      verified: false,
      ...packet,
    });
    assert.equal(again.status, 200);
    assert.equal(again.body.hash, first.body.hash);
    assert.equal(again.body.storyId, first.body.storyId);

    const status = await nr.client.getWithApiKey<{ publicationStage: string; safetyDecision: null; isCurrentPacket: boolean }>(
      `/v1/candidates/${first.body.hash}/status`,
    );
    assert.equal(status.status, 200);
    assert.equal(status.body.publicationStage, 'CANDIDATE');
    assert.equal(status.body.safetyDecision, null);
    assert.equal(status.body.isCurrentPacket, true);
    const evidence = await nr.client.getWithApiKey<{ packet: { title: string }; sources: { status: string }[] }>(
      `/v1/candidates/${first.body.hash}/evidence`,
    );
    assert.equal(evidence.status, 200);
    assert.equal(evidence.body.packet.title, packet.title);
    assert.equal(evidence.body.sources[0]?.status, 'UNREVIEWED');
    assert.equal((await nr.client.getWithApiKey(`/v1/candidates/${first.body.hash}/evidence`, 'wrong')).status, 401);
  });

  test('candidate validation: unknown field, bad room, duplicate claim ids, too many claims are 400', async () => {
    const bot = await nr.joinBot();
    for (const bad of [
      { decision: 'ALLOW' },
      { room: 'World News' },
      {
        claims: [
          { id: 'a', text: 'x' },
          { id: 'a', text: 'y' },
        ],
      },
      { claims: Array.from({ length: 51 }, (_, i) => ({ text: `c${i}` })) },
      { lang: 'it' },
    ]) {
      const res = await nr.client.agentWrite<{ code: string }>(bot, '/v1/candidates', {
        botId: bot.botId,
        verified: false,
        ...nr.packet(bad),
      });
      assert.equal(res.status, 400, JSON.stringify(bad));
      assert.equal(res.body.code, 'VALIDATION_FAILED');
    }
  });

  test('publish compute: operations token required, no caller decision, ALLOW publishes as PROVISIONAL with a ledger UPDATE', async () => {
    const bot = await nr.joinBot();
    const c = await nr.submit(bot);
    const noToken = await fetch(`${t.baseUrl}/v1/publish/${c.hash}/compute`, { method: 'POST' });
    assert.equal(noToken.status, 401);
    const override = await fetch(`${t.baseUrl}/v1/publish/${c.hash}/compute`, {
      method: 'POST',
      headers: { 'x-operations-token': TEST_OPS_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'ALLOW' }),
    });
    assert.equal(override.status, 400);
    const unknown = await nr.publish('f'.repeat(64));
    assert.equal(unknown.status, 404);
    const res = await nr.publish(c.hash);
    assert.equal(res.status, 200);
    assert.equal(res.body.decision, 'ALLOW');
    assert.ok(res.body.rules.length >= 5 && res.body.rules.every((r) => r.matched === false));
    const status = await nr.client.getWithApiKey<{ publicationStage: string; safetyDecision: string; publishedAt: string }>(
      `/v1/candidates/${c.hash}/status`,
    );
    assert.equal(status.body.publicationStage, 'PROVISIONAL');
    assert.equal(status.body.safetyDecision, 'ALLOW');
    const events = await ledger(c.storyId);
    assert.deepEqual(
      events.map((e) => [e.type, e.ledger_bucket, e.story_state]),
      [['UPDATE', 'provisional', 'PROVISIONAL']],
    );
  });

  test('the safety scan blocks hard categories and quarantines soft ones; neither publishes', async () => {
    const bot = await nr.joinBot();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ body: 'The councillor lives at 42 Maple Street and can be reached on 555-123-4567.' }, 'BLOCK', 'DOXXING'],
      [{ body: 'A post said: I will kill the mayor tomorrow at his home.' }, 'BLOCK', 'VIOLENT_THREAT'],
      [{ summary: 'Explicit sexual images of a 12-year-old were shared.' }, 'BLOCK', 'CHILD_SEXUAL_CONTENT'],
      [{ body: 'A clinic claims its tea is a miracle cure that cures cancer in weeks.' }, 'QUARANTINE', 'UNVERIFIED_HEALTH_CLAIM'],
      [{ body: 'The video shows the victims were decapitated in the square.' }, 'QUARANTINE', 'GRAPHIC_VIOLENCE'],
    ];
    for (const [overrides, decision, category] of cases) {
      const c = await nr.submit(bot, overrides);
      const res = await nr.publish(c.hash);
      assert.equal(res.body.decision, decision, JSON.stringify(overrides));
      assert.ok(res.body.categories.some((x) => x.category === category));
      const status = await nr.client.getWithApiKey<{ publicationStage: string; moderationStatus: string }>(
        `/v1/candidates/${c.hash}/status`,
      );
      assert.equal(status.body.publicationStage, 'CANDIDATE');
      assert.equal(status.body.moderationStatus, decision === 'BLOCK' ? 'BLOCKED' : 'QUARANTINED');
      assert.ok(!JSON.stringify(res.body).includes('555-123-4567'), 'the trace never echoes matched text');
    }
  });

  test('attestations target the exact current packet; one per bot per packet; never the author', async () => {
    const story = await nr.publishedStory();
    const [b, c, d] = [await nr.joinBot(), await nr.joinBot(), await nr.joinBot()];
    const stale = await nr.review(b, 'attestations', story.storyId, 'a'.repeat(64));
    assert.equal(stale.status, 409);
    assert.equal(stale.body.code, 'CURRENT_PACKET_MISMATCH');
    assert.match(stale.body.nextAction ?? '', /machine-room/);
    const own = await nr.review(story.author, 'attestations', story.storyId, story.hash);
    assert.equal(own.status, 403);
    assert.equal(own.body.code, 'SELF_ATTESTATION_FORBIDDEN');
    assert.equal((await nr.review(b, 'attestations', story.storyId, story.hash)).body.reviewStatus, 'EMERGING');
    const dup = await nr.review(b, 'objections', story.storyId, story.hash);
    assert.equal(dup.status, 409);
    assert.equal(dup.body.code, 'REVIEW_ALREADY_RECORDED');
    await nr.review(c, 'attestations', story.storyId, story.hash);
    const third = await nr.review(d, 'attestations', story.storyId, story.hash, {
      confidence: 0.9,
      claimIds: [story.packet.claims[0]!.id],
    });
    assert.equal(third.status, 202);
    assert.equal(third.body.reviewStatus, 'CLEAR', 'three attestations meet consensus.minAttestations (3)');
    const unknownClaim = await nr.review(await nr.joinBot(), 'attestations', story.storyId, story.hash, { claimIds: ['nope'] });
    assert.equal(unknownClaim.status, 400);
    const missing = await nr.review(b, 'attestations', 'st_doesnotexist', story.hash);
    assert.equal(missing.status, 404);
  });

  test('objections past the threshold make the story CONTESTED with a CHALLENGE on the ledger', async () => {
    const story = await nr.publishedStory();
    const bots = [await nr.joinBot(), await nr.joinBot(), await nr.joinBot()];
    await nr.review(bots[0]!, 'attestations', story.storyId, story.hash);
    await nr.review(bots[1]!, 'objections', story.storyId, story.hash);
    const res = await nr.review(bots[2]!, 'objections', story.storyId, story.hash);
    assert.equal(res.body.reviewStatus, 'CONTESTED');
    const events = await ledger(story.storyId);
    assert.deepEqual(events.at(-1) && [events.at(-1)!.type, events.at(-1)!.ledger_bucket, events.at(-1)!.story_state], [
      'CHALLENGE',
      'under-review',
      'CONTESTED',
    ]);
  });

  test('an accepted revision makes a new version and packet hash, an UPDATE in agent-review, and leaves old attestations on the old packet', async () => {
    const story = await nr.publishedStory();
    const [proposer, v1, v2, att] = [await nr.joinBot(), await nr.joinBot(), await nr.joinBot(), await nr.joinBot()];
    await nr.review(att, 'attestations', story.storyId, story.hash);
    const propose = (body: Record<string, unknown>) =>
      nr.client.agentWrite<{ id: string; status: string; code?: string; resultPacketHash: string | null; resultVersion: number | null }>(
        proposer,
        '/v1/agents/revision-proposals',
        {
          botId: proposer.botId,
          verified: false,
          storyId: story.storyId,
          packetHash: story.hash,
          rationale: 'The timetable starts on the 3rd.',
          ...body,
        },
      );
    const empty = await propose({ changes: {} });
    assert.equal(empty.status, 400);
    const proposal = await propose({ changes: { summary: 'The port authority added two evening crossings from the 3rd.' } });
    assert.equal(proposal.status, 202);
    assert.equal(proposal.body.status, 'OPEN');
    const competing = await propose({ changes: { title: 'A competing title' } });
    const vote = (key: typeof v1, id: string, v: 'ACCEPT' | 'REJECT') =>
      nr.client.agentWrite<{ status: string; code?: string; resultPacketHash: string | null; resultVersion: number | null }>(
        key,
        `/v1/agents/revision-proposals/${id}/votes`,
        { botId: key.botId, verified: false, vote: v },
      );
    const self = await vote(proposer, proposal.body.id, 'ACCEPT');
    assert.equal(self.status, 403);
    assert.equal(self.body.code, 'PROPOSER_CANNOT_VOTE');
    assert.equal((await vote(v1, proposal.body.id, 'ACCEPT')).body.status, 'OPEN');
    assert.equal((await vote(v1, proposal.body.id, 'REJECT')).body.code, 'VOTE_ALREADY_RECORDED');
    const accepted = await vote(v2, proposal.body.id, 'ACCEPT');
    assert.equal(accepted.status, 202);
    assert.equal(accepted.body.status, 'ACCEPTED');
    assert.equal(accepted.body.resultVersion, 2);
    assert.match(accepted.body.resultPacketHash ?? '', /^[0-9a-f]{64}$/);
    assert.notEqual(accepted.body.resultPacketHash, story.hash);

    const stale = await vote(v1, competing.body.id, 'ACCEPT');
    assert.equal(stale.status, 409, 'open proposals against the old packet went stale');
    const oldAttest = await nr.review(v1, 'attestations', story.storyId, story.hash);
    assert.equal(oldAttest.body.code, 'CURRENT_PACKET_MISMATCH');
    assert.equal((await nr.review(v1, 'attestations', story.storyId, accepted.body.resultPacketHash!)).status, 202);

    const db = t.app.ctx.database.db;
    const versions = await db
      .selectFrom('story_versions')
      .select(['version', 'packet_hash'])
      .where('story_id', '=', story.storyId)
      .orderBy('version')
      .execute();
    assert.deepEqual(
      versions.map((v) => v.packet_hash),
      [story.hash, accepted.body.resultPacketHash],
    );
    const oldReviews = await db.selectFrom('agent_reviews').select('bot_id').where('packet_hash', '=', story.hash).execute();
    assert.deepEqual(
      oldReviews.map((r) => r.bot_id),
      [att.botId],
    );
    const events = await ledger(story.storyId);
    assert.deepEqual(
      [events.at(-1)!.type, events.at(-1)!.ledger_bucket, events.at(-1)!.editorial_state],
      ['UPDATE', 'agent-review', 'REVISED'],
    );
    const oldStatus = await nr.client.getWithApiKey<{ isCurrentPacket: boolean }>(`/v1/candidates/${story.hash}/status`);
    assert.equal(oldStatus.body.isCurrentPacket, false);
  });

  test('humans comment, flag and vote; a HIGH flag on a claim needs a verified human action and puts the story UNDER_REVIEW', async () => {
    const story = await nr.publishedStory();
    const claimId = story.packet.claims[1]!.id;
    const comment = await human(`/v1/stories/${story.storyId}/comments`, { body: 'Is the 3rd confirmed?' });
    assert.equal(comment.status, 202);
    const reply = await human(`/v1/stories/${story.storyId}/comments`, { body: 'Yes, per the minutes.', parentId: comment.body.id });
    assert.equal(reply.status, 202);
    assert.equal((await human(`/v1/stories/${story.storyId}/comments`, { body: 'x', parentId: 'cm_other' })).status, 400);

    assert.equal((await human(`/v1/stories/${story.storyId}/flags`, { severity: 'LOW', reason: 'Typo in the title' })).status, 202);
    assert.equal(
      (await human(`/v1/stories/${story.storyId}/flags`, { severity: 'LOW', reason: 'again' })).body.code,
      'FLAG_ALREADY_RECORDED',
    );
    assert.equal(
      (await human(`/v1/stories/${story.storyId}/flags`, { actorId: 'reader-2', severity: 'HIGH', reason: 'False' })).status,
      400,
      'HIGH needs a claim',
    );
    const unverified = await human(`/v1/stories/${story.storyId}/flags`, {
      actorId: 'reader-2',
      linkedHumanId: 'h_reader2',
      verified: true,
      severity: 'HIGH',
      reason: 'The start date is wrong',
      claimId,
    });
    assert.equal(unverified.status, 409);
    assert.equal(unverified.body.code, 'HUMAN_VERIFICATION_REQUIRED');

    await recordVerifiedHumanAction(t.app.ctx.database.db, {
      action: `flag_high_severity:${claimId}`,
      linkedHumanId: 'h_reader2',
      provider: 'world_id',
      nullifierHash: `n-${story.storyId}`,
      at: new Date(),
    });
    const otherHuman = await human(`/v1/stories/${story.storyId}/flags`, {
      actorId: 'reader-3',
      linkedHumanId: 'h_reader3',
      verified: true,
      severity: 'HIGH',
      reason: 'x',
      claimId,
    });
    assert.equal(otherHuman.body.code, 'HUMAN_VERIFICATION_REQUIRED', "another human cannot use reader-2's proof");
    const high = await human(`/v1/stories/${story.storyId}/flags`, {
      actorId: 'reader-2',
      linkedHumanId: 'h_reader2',
      verified: true,
      severity: 'HIGH',
      reason: 'The start date is wrong',
      claimId,
    });
    assert.equal(high.status, 202, JSON.stringify(high.body));
    assert.equal(high.body.reviewStatus, 'UNDER_REVIEW');
    assert.equal(high.body.challenge, true);
    const events = await ledger(story.storyId);
    assert.deepEqual(
      [events.at(-1)!.type, events.at(-1)!.ledger_bucket, events.at(-1)!.story_state],
      ['CHALLENGE', 'under-review', 'UNDER_REVIEW'],
    );
    const attest = await nr.review(await nr.joinBot(), 'attestations', story.storyId, story.hash);
    assert.equal(attest.body.reviewStatus, 'UNDER_REVIEW', 'attestations do not lift a review');

    const vote = await human(`/v1/stories/${story.storyId}/reward-votes`, { vote: 'UP' });
    assert.equal(vote.status, 202);
    assert.equal(vote.body.weight, 1);
    const second = await human(`/v1/stories/${story.storyId}/reward-votes`, { vote: 'DOWN' });
    assert.equal(second.status, 409);
    assert.equal(second.body.code, 'REWARD_VOTE_ALREADY_CAST');
  });

  test('reward votes outside the reward window are 409; a candidate takes no human writes (404)', async () => {
    const story = await nr.publishedStory();
    await t.app.ctx.database.db
      .updateTable('stories')
      .set({ reward_window_ends_at: new Date(Date.now() - 1000) })
      .where('id', '=', story.storyId)
      .execute();
    const late = await human(`/v1/stories/${story.storyId}/reward-votes`, { vote: 'UP' });
    assert.equal(late.status, 409);
    assert.equal(late.body.code, 'REWARD_WINDOW_CLOSED');
    const bot = await nr.joinBot();
    const candidate = await nr.submit(bot);
    assert.equal((await human(`/v1/stories/${candidate.storyId}/comments`, { body: 'early' })).status, 404);
    assert.equal((await human(`/v1/stories/st_missing/comments`, { body: 'x' })).status, 404);
  });

  test('graduation needs the consensus gate and a verified human action graduate:<storyId>, consumed once', async () => {
    const story = await nr.publishedStory();
    const bots = await Promise.all(Array.from({ length: 5 }, () => nr.joinBot()));
    for (const bot of bots.slice(0, 5)) await nr.review(bot, 'attestations', story.storyId, story.hash);
    const db = t.app.ctx.database.db;
    const before = await db
      .selectFrom('stories')
      .select(['publication_stage', 'review_status'])
      .where('id', '=', story.storyId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(before, { publication_stage: 'PROVISIONAL', review_status: 'CLEAR' }, 'gate met, no human action: still provisional');
    await recordVerifiedHumanAction(db, {
      action: `graduate:${story.storyId}`,
      linkedHumanId: 'h_editor',
      provider: 'world_id',
      nullifierHash: `g-${story.storyId}`,
      at: new Date(),
    });
    const comment = await human(`/v1/stories/${story.storyId}/comments`, { body: 'Confirmed by the minutes.' });
    assert.equal(comment.status, 202);
    const afterRow = await db
      .selectFrom('stories')
      .select(['publication_stage', 'graduated_at'])
      .where('id', '=', story.storyId)
      .executeTakeFirstOrThrow();
    assert.equal(afterRow.publication_stage, 'GRADUATED');
    assert.ok(afterRow.graduated_at);
    const action = await db
      .selectFrom('verified_human_actions')
      .select(['consumed_at', 'consumed_by'])
      .where('action', '=', `graduate:${story.storyId}`)
      .executeTakeFirstOrThrow();
    assert.ok(action.consumed_at);
    const events = await ledger(story.storyId);
    assert.deepEqual([events.at(-1)!.type, events.at(-1)!.ledger_bucket, events.at(-1)!.story_state], ['UPDATE', 'graduated', 'GRADUATED']);
    await assert.rejects(
      recordVerifiedHumanAction(db, {
        action: `graduate:${story.storyId}`,
        linkedHumanId: 'h_editor',
        provider: 'world_id',
        nullifierHash: `g-${story.storyId}`,
        at: new Date(),
      }),
      (err: { code?: string }) => err.code === 'NULLIFIER_REUSED',
    );
  });
});
