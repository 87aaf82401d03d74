import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { newsroomClient } from '../helpers/newsroom.js';
import { identityClient, newNullifier } from '../identity/identity-helpers.js';
import type { Json } from '../helpers/json.js';
import { allBookmarkPages, readerAs } from './reader-helpers.js';

/** A story whose words (title, summary, body, claims) say nothing about ferries. */
const plain = (room: string, title: string) => ({
  room,
  title,
  summary: `${title}: a short summary of what happened.`,
  body: `${title}. The full report of the day, with the details the desk confirmed.`,
  claims: [{ text: `${title} happened this week.` }],
});

describe("a reader's whole life through HTTP (SDK-signed requests)", () => {
  let t: TestApp;
  let newsroom: ReturnType<typeof newsroomClient>;
  const ids: Record<'sci1' | 'sci2' | 'ferry' | 'sport1' | 'sport2', string> = { sci1: '', sci2: '', ferry: '', sport1: '', sport2: '' };

  before(async () => {
    t = await createTestApp();
    newsroom = newsroomClient(await t.listen());
    // published one after the other: later stories trend higher (the trending score grows with publication time)
    ids.sport1 = (await newsroom.publishedStory(plain('sport', 'Local rowing club wins the regional final'))).storyId;
    ids.sci1 = (await newsroom.publishedStory(plain('science', 'Telescope survey maps a distant galaxy cluster'))).storyId;
    ids.ferry = (await newsroom.publishedStory({ room: 'world' })).storyId; // the default packet is about a ferry schedule
    ids.sci2 = (await newsroom.publishedStory(plain('science', 'Laboratory grows crystals in orbit'))).storyId;
    ids.sport2 = (await newsroom.publishedStory(plain('sport', 'Marathon route changes for the spring race'))).storyId;
  });
  after(() => t.close());

  test('preferences, bookmarks, topics, reads, a personalized feed, export, history clear and export again', async () => {
    const { client } = newsroom;
    // the front end logs Alice in with World ID (dev proofs) and signs her linkedHumanId from then on
    const identity = identityClient(client);
    const nullifier = newNullifier();
    const { linkedHumanId } = await identity.login('reader-alice', nullifier);
    const alice = readerAs(client, 'reader-alice', { verified: true, linkedHumanId });

    // preferences: nothing stored yet, then history switched on (it is off unless asked for)
    const empty = await alice.read('/v1/users/me/preferences');
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body.preferences, {});
    assert.equal(empty.headers.get('cache-control'), 'private, no-store');
    const prefs = await alice.preferences({ personalization: true, lang: 'fr' });
    assert.equal(prefs.status, 202, JSON.stringify(prefs.body));
    assert.equal(prefs.body.preferences.personalization, true);

    // bookmarks: three stories; the same one again is the same bookmark
    for (const id of [ids.sci1, ids.ferry, ids.sport1]) {
      const res = await alice.bookmark(id);
      assert.equal(res.status, 202, JSON.stringify(res.body));
      assert.deepEqual([res.body.storyId, res.body.created], [id, true]);
    }
    const first = (await alice.bookmarks()).body.items.find((b: Json) => b.storyId === ids.sci1);
    const again = await alice.bookmark(ids.sci1);
    assert.equal(again.status, 202);
    assert.equal(again.body.created, false);
    assert.equal(again.body.bookmarkedAt, first.bookmarkedAt);
    const pages = await allBookmarkPages(alice, 2);
    assert.equal(pages.length, 3);
    const keys = pages.map((b) => `${b.bookmarkedAt}|${b.storyId}`);
    assert.deepEqual(keys, [...keys].sort().reverse(), 'newest first, story id breaking ties');
    assert.equal(pages.find((b) => b.storyId === ids.sci1)?.story.title, 'Telescope survey maps a distant galaxy cluster');
    assert.equal(pages.find((b) => b.storyId === ids.sci1)?.story.labels.state, 'Provisional');

    // topics: a room and a tag; every spelling of a topic is the same topic
    assert.equal((await alice.follow('Science', 'ROOM')).body.topic, 'science');
    const ferry = await alice.follow('  FERRY ');
    assert.equal(ferry.status, 202);
    assert.deepEqual([ferry.body.topic, ferry.body.kind, ferry.body.label, ferry.body.created], ['ferry', 'TAG', 'FERRY', true]);
    assert.equal((await alice.follow('ferry')).body.created, false);
    assert.equal((await alice.follow('Cafe\u0301   Culture')).body.topic, 'caf\u00e9 culture');
    const cafe = await alice.follow('CAF\u00c9 culture');
    assert.deepEqual([cafe.status, cafe.body.created], [202, false]);
    const topics = await alice.topics();
    assert.deepEqual(
      topics.body.items.map((x: Json) => x.topic),
      ['science', 'ferry', 'caf\u00e9 culture'],
    );
    assert.equal(topics.body.limit, 100);

    // reads: a signed story read is the public body, recorded in the history, never cached
    const read = await alice.readStory(ids.sci1);
    assert.equal(read.status, 200);
    assert.equal(read.body.id, ids.sci1);
    assert.equal(read.headers.get('cache-control'), 'private, no-store');
    assert.equal(read.headers.get('x-read-cache'), null);
    assert.equal((await alice.readStory(ids.sci1)).status, 200);
    assert.equal((await alice.readStory(ids.sport1)).status, 200);

    // the feed ranks followed topics and unread stories first: followed unread, followed read, unread, read
    const feed = await alice.feed();
    assert.equal(feed.status, 200, JSON.stringify(feed.body));
    assert.equal(feed.body.personalized, true);
    assert.equal(feed.headers.get('x-read-cache'), null);
    const order = feed.body.items.map((s: Json) => s.id);
    assert.deepEqual(order, [ids.sci2, ids.ferry, ids.sci1, ids.sport2, ids.sport1]);

    // the public feed is untouched: trending order, no personalization, cached as before
    const pub1 = await client.get<Json>('/v1/feed');
    const pub2 = await client.get<Json>('/v1/feed');
    assert.deepEqual(
      pub1.body.items.map((s: Json) => s.id),
      [ids.sport2, ids.sci2, ids.ferry, ids.sci1, ids.sport1],
    );
    assert.equal(pub1.body.personalized, undefined);
    assert.equal(pub2.headers.get('x-read-cache'), 'hit');
    assert.deepEqual(pub2.body, pub1.body);

    // what else the reader wrote shows in the export too
    const signedWrite = (path: string, body: Record<string, unknown>) =>
      alice.write(path, body).then((res) => assert.equal(res.status, 202, `${path}: ${JSON.stringify(res.body)}`));
    await signedWrite(`/v1/stories/${ids.ferry}/comments`, { body: 'Finally, evening crossings.' });
    await signedWrite(`/v1/stories/${ids.sport1}/flags`, { severity: 'LOW', reason: 'The final was last month.' });
    const proven = await identity.verifyAction('reader-alice', `reward:${ids.sci2}`, { linkedHumanId });
    assert.equal(proven.status, 202, JSON.stringify(proven.body));
    await signedWrite(`/v1/stories/${ids.sci2}/reward-votes`, { vote: 'UP' });

    const exported = await alice.export();
    assert.equal(exported.status, 200, JSON.stringify(exported.body));
    assert.equal(exported.headers.get('cache-control'), 'private, no-store');
    const doc = exported.body;
    assert.equal(doc.schemaVersion, 1);
    assert.equal(doc.actorId, 'reader-alice');
    assert.ok(Date.parse(doc.generatedAt) > 0);
    const s = doc.sections;
    assert.deepEqual(Object.keys(s), [
      'identity',
      'preferences',
      'bookmarks',
      'topics',
      'history',
      'comments',
      'flags',
      'rewardVotes',
      'rewardRecipient',
      'walletBindings',
      'walletChallenges',
      'payouts',
      'paidActionUsage',
    ]);
    assert.deepEqual([s.rewardRecipient, s.walletBindings, s.walletChallenges, s.payouts], [null, [], [], []], 'no recipient yet');
    assert.deepEqual(s.paidActionUsage, [{ day: new Date().toISOString().slice(0, 10), countedAs: 'linkedHuman', used: 1 }]);
    assert.equal(s.identity.binding.linkedHumanId, linkedHumanId);
    assert.ok(Date.parse(s.identity.binding.sessionExpiresAt) > Date.now());
    assert.deepEqual([s.identity.humanIdentity.tier, s.identity.humanIdentity.provider], ['L3', 'world_id']);
    assert.equal(s.identity.loginChallenges.length, 1);
    assert.equal(s.identity.loginChallenges[0].action, 'svc-login');
    assert.ok(s.identity.loginChallenges[0].usedAt);
    assert.deepEqual(
      s.identity.verifiedHumanActions.map((a: Json) => [a.action, a.provider, typeof a.consumedAt]),
      [[`reward:${ids.sci2}`, 'world_id', 'string']],
    );
    assert.deepEqual(s.preferences.preferences, { personalization: true, lang: 'fr' });
    assert.deepEqual(s.bookmarks.map((b: Json) => b.storyId).sort(), [ids.sci1, ids.ferry, ids.sport1].sort());
    assert.deepEqual(
      s.topics.map((x: Json) => x.topic),
      ['science', 'ferry', 'caf\u00e9 culture'],
    );
    assert.equal(s.history.recording, true);
    const sci1Read = s.history.items.find((h: Json) => h.storyId === ids.sci1);
    assert.equal(sci1Read.readCount, 2);
    assert.deepEqual(s.history.items.map((h: Json) => h.storyId).sort(), [ids.sci1, ids.sport1].sort());
    assert.deepEqual(
      s.comments.map((c: Json) => [c.storyId, c.body, c.linkedHumanId]),
      [[ids.ferry, 'Finally, evening crossings.', linkedHumanId]],
    );
    assert.deepEqual(
      s.flags.map((f: Json) => [f.storyId, f.severity]),
      [[ids.sport1, 'LOW']],
    );
    assert.deepEqual(
      s.rewardVotes.map((v: Json) => [v.storyId, v.vote, v.weight]),
      [[ids.sci2, 'UP', 3]],
    );
    const text = JSON.stringify(doc);
    assert.doesNotMatch(text, /nullifier|signal|secret|signature|proof"/i, 'no proof material or secret in the export');
    assert.ok(!text.includes(nullifier.slice(2)), 'the login nullifier hash is not exported');

    // history clear erases the history only; again: 0
    const cleared = await alice.clearHistory();
    assert.equal(cleared.status, 202, JSON.stringify(cleared.body));
    assert.equal(cleared.body.cleared, 2);
    assert.ok(Date.parse(cleared.body.clearedAt) > 0);
    assert.equal((await alice.clearHistory()).body.cleared, 0);

    const after = (await alice.export()).body.sections;
    assert.deepEqual(after.history.items, []);
    assert.equal(after.bookmarks.length, 3);
    assert.equal(after.topics.length, 3);
    assert.equal(after.comments.length, 1);
    assert.deepEqual(after.preferences, s.preferences);

    // with the history gone, sci1 counts as unread again
    const refreshed = (await alice.feed()).body.items.map((x: Json) => x.id);
    assert.deepEqual(refreshed.slice(0, 3), [ids.sci2, ids.ferry, ids.sci1]);

    // history off: reads are no longer recorded, and nothing counts as unread
    const merged = await alice.preferences({ personalization: false });
    // a write merges into what is stored: the language set earlier stays
    assert.deepEqual(merged.body.preferences, { personalization: false, lang: 'fr' });
    assert.ok(merged.body.updatedAt >= prefs.body.updatedAt);
    assert.equal((await alice.readStory(ids.sci2)).status, 200);
    const off = (await alice.export()).body.sections.history;
    assert.deepEqual([off.recording, off.items], [false, []]);

    // unbookmark and unfollow answer what they removed; a second time removes nothing
    const removed = await alice.unbookmark(ids.ferry);
    assert.equal(removed.status, 200);
    assert.deepEqual([removed.body.removed, typeof removed.body.bookmarkedAt], [true, 'string']);
    const none = await alice.unbookmark(ids.ferry);
    assert.deepEqual([none.status, none.body.removed, none.body.bookmarkedAt], [200, false, null]);
    const unfollowed = await alice.unfollow('Ferry');
    assert.deepEqual(
      [unfollowed.status, unfollowed.body.topic, unfollowed.body.removed, unfollowed.body.kind],
      [200, 'ferry', true, 'TAG'],
    );
    assert.deepEqual([(await alice.unfollow('ferry')).body.removed], [false]);
    const final = (await alice.export()).body.sections;
    assert.equal(final.bookmarks.length, 2);
    assert.deepEqual(
      final.topics.map((x: Json) => x.topic),
      ['science', 'caf\u00e9 culture'],
    );
  });
});
