import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { recordVerifiedHumanAction } from '../../src/identity/humans/human-actions.js';
import { bindActor } from '../helpers/identity.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../helpers/app.js';
import { newsroomClient } from '../helpers/newsroom.js';

type Nr = ReturnType<typeof newsroomClient>;
type Body = Record<string, unknown> & { code?: string };
interface CommentRead {
  id: string;
  parentId: string | null;
  body: string;
  deleted: boolean;
  editedAt?: string;
  authorName?: string;
}

/**
 * A reader's second thoughts, through real HTTP and the SDK's human client: edit a comment (15 minutes), delete it
 * (its place stays), change a reward vote (while the window is open, still one vote).
 */
describe('comments edited and deleted, reward votes changed', () => {
  let t: TestApp;
  let nr: Nr;
  const ana = { actorId: 'reader-ana', verified: true, linkedHumanId: 'h_ana' };
  const ben = { actorId: 'reader-ben', verified: false };
  before(async () => {
    t = await createTestApp();
    nr = newsroomClient(await t.listen());
    await bindActor(t.db.database, ana.actorId, ana.linkedHumanId);
  });
  after(() => t.close());

  const post = (storyId: string, actor: object, body: string, parentId?: string) =>
    nr.client.humanWrite<Body & { id: string }>(TEST_SECRET, `/v1/stories/${storyId}/comments`, {
      ...(actor as typeof ben),
      body,
      ...(parentId ? { parentId } : {}),
    });
  const list = async (storyId: string) => (await nr.client.get<{ items: CommentRead[] }>(`/v1/stories/${storyId}/comments`)).body.items;
  const story = async (storyId: string) => (await nr.client.get<{ counts: { comments: number } }>(`/v1/stories/${storyId}`)).body;

  test('the author edits within 15 minutes (shown as edited); after, 409 COMMENT_EDIT_WINDOW_CLOSED; someone else 403', async () => {
    const s = await nr.publishedStory();
    const first = await post(s.storyId, ana, 'The levy starts in May?');
    assert.equal(first.status, 202);
    assert.equal(first.body.deleted, false);

    const edited = await nr.client.editComment(TEST_SECRET, ana, s.storyId, first.body.id, 'The levy starts in June?');
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.equal(edited.body.body, 'The levy starts in June?');
    const read = (await list(s.storyId)).find((c) => c.id === first.body.id)!;
    assert.equal(read.body, 'The levy starts in June?');
    assert.ok(read.editedAt, 'every read shows the edit');

    const other = await nr.client.editComment(TEST_SECRET, ben, s.storyId, first.body.id, 'hijacked');
    assert.equal(other.status, 403);
    assert.equal((other.body as Body).code, 'COMMENT_NOT_YOURS');
    assert.equal((await nr.client.deleteComment(TEST_SECRET, ben, s.storyId, first.body.id)).status, 403);
    const blank = await nr.client.editComment(TEST_SECRET, ana, s.storyId, first.body.id, '   ');
    assert.equal(blank.status, 400);
    assert.equal((await nr.client.editComment(TEST_SECRET, ana, s.storyId, 'cm_missing', 'x')).status, 404);
    const elsewhere = await nr.publishedStory();
    assert.equal(
      (await nr.client.editComment(TEST_SECRET, ana, elsewhere.storyId, first.body.id, 'x')).status,
      404,
      'a comment is addressed through its own story',
    );

    await t.app.ctx.database.db
      .updateTable('comments')
      .set({ created_at: new Date(Date.now() - 16 * 60_000) } as never) // posted 16 minutes ago
      .where('id', '=', first.body.id)
      .execute();
    const late = await nr.client.editComment(TEST_SECRET, ana, s.storyId, first.body.id, 'Too late');
    assert.equal(late.status, 409);
    assert.equal((late.body as Body).code, 'COMMENT_EDIT_WINDOW_CLOSED');
    assert.equal((await list(s.storyId))[0]!.body, 'The levy starts in June?', 'nothing changed');
  });

  test('the author deletes at any time: a marker stays (deleted, empty body, no name), replies keep their parent, the count drops', async () => {
    const s = await nr.publishedStory();
    const parent = await post(s.storyId, ana, 'A secret I regret');
    const reply = await post(s.storyId, ben, 'Replying to that', parent.body.id);
    assert.equal((await story(s.storyId)).counts.comments, 2);
    await t.app.ctx.database.db
      .updateTable('comments')
      .set({ created_at: new Date(Date.now() - 24 * 3600_000) } as never) // posted yesterday
      .where('id', '=', parent.body.id)
      .execute();

    const gone = await nr.client.deleteComment(TEST_SECRET, ana, s.storyId, parent.body.id);
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
    assert.equal(gone.body.deleted, true);
    assert.equal(gone.body.body, '');

    const items = await list(s.storyId);
    const marker = items.find((c) => c.id === parent.body.id)!;
    assert.deepEqual([marker.deleted, marker.body, marker.authorName], [true, '', undefined]);
    assert.equal(items.find((c) => c.id === reply.body.id)!.parentId, parent.body.id, 'the reply keeps its place');
    assert.equal((await story(s.storyId)).counts.comments, 1);
    const stored = await t.app.ctx.database.db
      .selectFrom('comments')
      .select('body')
      .where('id', '=', parent.body.id)
      .executeTakeFirstOrThrow();
    assert.equal(stored.body, '', 'the text is gone from the database too');

    const again = await nr.client.deleteComment(TEST_SECRET, ana, s.storyId, parent.body.id);
    assert.equal(again.status, 200);
    assert.equal((await story(s.storyId)).counts.comments, 1, 'deleting twice counts once');
    const edit = await nr.client.editComment(TEST_SECRET, ana, s.storyId, parent.body.id, 'back');
    assert.equal((edit.body as Body).code, 'COMMENT_DELETED');
  });

  test('a reader changes their reward vote: one vote, the consensus follows, a proof raises the weight; 404 and 409 as documented', async () => {
    const s = await nr.publishedStory();
    const none = await nr.client.changeRewardVote(TEST_SECRET, ana, s.storyId, 'DOWN');
    assert.equal(none.status, 404, 'no vote to change');

    const cast = await nr.client.humanWrite<Body>(TEST_SECRET, `/v1/stories/${s.storyId}/reward-votes`, { ...ana, vote: 'UP' });
    assert.equal(cast.status, 202);
    assert.equal(cast.body.weight, 1);
    const second = await nr.client.humanWrite<Body>(TEST_SECRET, `/v1/stories/${s.storyId}/reward-votes`, { ...ana, vote: 'DOWN' });
    assert.equal(second.body.code, 'REWARD_VOTE_ALREADY_CAST', 'the POST stays one vote');

    const changed = await nr.client.changeRewardVote(TEST_SECRET, ana, s.storyId, 'DOWN');
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual([changed.body.vote, changed.body.weight, changed.body.id], ['DOWN', 1, cast.body.id]);
    assert.ok(changed.body.changedAt);
    const snapshot = await t.app.ctx.database.db
      .selectFrom('consensus_snapshots')
      .select('snapshot')
      .where('story_id', '=', s.storyId)
      .executeTakeFirstOrThrow();
    const counted = (snapshot.snapshot as { rewardVotes: { count: number; up: number; down: number } }).rewardVotes;
    assert.deepEqual([counted.count, counted.up, counted.down], [1, 0, 1], 'the consensus counts the vote as it now stands');
    const rows = await t.app.ctx.database.db.selectFrom('reward_votes').selectAll().where('story_id', '=', s.storyId).execute();
    assert.equal(rows.length, 1, 'still one vote per reader per story');

    await recordVerifiedHumanAction(t.app.ctx.database.db, {
      action: `reward:${s.storyId}`,
      linkedHumanId: ana.linkedHumanId,
      provider: 'world_id',
      nullifierHash: `rv-${s.storyId}`,
      at: new Date(),
    });
    const raised = await nr.client.changeRewardVote(TEST_SECRET, ana, s.storyId, 'DOWN');
    assert.equal(raised.status, 200);
    assert.equal(raised.body.weight, 3, 'the L3 weight with the proof, as the cast gives it');
    assert.ok(raised.body.verifiedActionId);

    await t.app.ctx.database.db
      .updateTable('stories')
      .set({ reward_window_ends_at: new Date(Date.now() - 1000) })
      .where('id', '=', s.storyId)
      .execute();
    const late = await nr.client.changeRewardVote(TEST_SECRET, ana, s.storyId, 'UP');
    assert.equal(late.status, 409);
    assert.equal((late.body as Body).code, 'REWARD_WINDOW_CLOSED');
  });
});
