import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { NAME_RULES, nameProblem } from '../../src/readers/names/policy.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { newsroomClient } from '../helpers/newsroom.js';
import type { Json } from '../helpers/json.js';
import { readerAs } from './reader-helpers.js';

/** Display names (docs/reader-accounts.md, "Display names"): the rules, uniqueness, comment authors, history for moderators. */

test('the name rules: any script, 3 to 30 characters, no reserved word or look-alike, screened', () => {
  for (const ok of ['Ana Lima', 'Zoë Müller', '李小龙', 'Анна К.', 'n_o-r.a', 'Reader 42', 'ناصر']) assert.equal(nameProblem(ok), null, ok);
  const refused: [string, RegExp][] = [
    ['ab', /3 to 30/],
    ['a'.repeat(31), /3 to 30/],
    [' Ana', /start or end with a space/],
    ['Ana ', /start or end with a space/],
    ['Ana  Lima', /one space/],
    ['Ana<b>', /letters, digits/],
    ['Ana@home', /letters, digits/],
    ['___', /at least one letter/],
    ['acct_1234abcd', /account or bot id/],
    ['Admin', /reserved/],
    ['ADM1N', /reserved/],
    ['the.moderator', /reserved/],
    ['\u0430dmin', /reserved/], // a Cyrillic а
    ['\uff21\uff44\uff4d\uff49\uff4e', /reserved/], // full-width letters
    ['Mod', /reserved/],
    ['Newsroom Desk', /reserved/],
    ['call 555 123 4567', /not allowed/],
  ];
  for (const [name, why] of refused) {
    const rule = nameProblem(name);
    assert.match(rule ? NAME_RULES[rule] : 'accepted', why, name);
  }
});

describe('display names through the API', () => {
  let t: TestApp;
  let newsroom: ReturnType<typeof newsroomClient>;

  before(async () => {
    t = await createTestApp({ CONTENT_ADMIN_IDS: 'desk-chief' });
    newsroom = newsroomClient(await t.listen());
  });
  after(() => t.close());

  test('a name is set, kept, and refused to another person in any case (409 NAME_TAKEN)', async () => {
    const ana = readerAs(newsroom.client, 'reader-ana');
    assert.deepEqual((await ana.read('/v1/users/me/name')).body.name, null);
    const set = await ana.write('/v1/users/me/name', { name: 'Ana Lima' });
    assert.equal(set.status, 202);
    assert.deepEqual([set.body.name, set.body.changed], ['Ana Lima', true]);
    assert.equal((await ana.read('/v1/users/me/name')).body.name, 'Ana Lima');
    assert.equal((await ana.write('/v1/users/me/name', { name: 'Ana Lima' })).body.changed, false, 'the same name again');

    const other = readerAs(newsroom.client, 'reader-other');
    for (const taken of ['ana lima', 'ANA LIMA', '\uff21na Lima']) {
      const res = await other.write('/v1/users/me/name', { name: taken });
      assert.deepEqual([res.status, res.body.code], [409, 'NAME_TAKEN'], taken);
    }
    // the holder may change the case of their own name
    assert.equal((await ana.write('/v1/users/me/name', { name: 'ana lima' })).status, 202);
  });

  test('a name that breaks a rule is 400 VALIDATION_FAILED with the rule in words', async () => {
    const reader = readerAs(newsroom.client, 'reader-rules');
    for (const [name, why] of [
      ['x', /3 to 30 characters/],
      ['Administrator', /reserved/],
      ['<script>', /letters, digits/],
    ] as const) {
      const res = await reader.write('/v1/users/me/name', { name });
      assert.deepEqual([res.status, res.body.code], [400, 'VALIDATION_FAILED'], name);
      assert.match(String(res.body.message), why, name);
      assert.equal((res.body.details as Json[])[0]!.path, '/name');
      assert.match(String((res.body.details as Json[])[0]!.code), /^NAME_/);
    }
    const extra = await reader.write('/v1/users/me/name', { name: 'Fine Name', color: 'red' });
    assert.equal(extra.status, 400, 'unknown properties are refused');
  });

  test('comments carry their author’s name, the new one right after a change', async () => {
    const { storyId } = await newsroom.publishedStory();
    const writer = readerAs(newsroom.client, 'reader-writer');
    const silent = readerAs(newsroom.client, 'reader-silent');
    await writer.write('/v1/users/me/name', { name: 'Quill' });
    assert.equal((await writer.write(`/v1/stories/${storyId}/comments`, { body: 'First.' })).status, 202);
    assert.equal((await silent.write(`/v1/stories/${storyId}/comments`, { body: 'Second.' })).status, 202);
    const list = async () => (await newsroom.client.get<Json>(`/v1/stories/${storyId}/comments`)).body.items as Json[];
    const first = await list();
    assert.deepEqual(
      first.map((c) => [c.actorId, c.authorName]),
      [
        ['reader-writer', 'Quill'],
        ['reader-silent', undefined],
      ],
    );
    await writer.write('/v1/users/me/name', { name: 'Quill Two' });
    assert.equal((await list())[0]!.authorName, 'Quill Two', 'the cached comment list moved on');
  });

  test('moderators read a person’s past names; nobody else may', async () => {
    const reader = readerAs(newsroom.client, 'reader-renames');
    for (const name of ['First Name', 'Second Name', 'Third Name']) await reader.write('/v1/users/me/name', { name });
    const chief = readerAs(newsroom.client, 'desk-chief');
    const history = await chief.read('/v1/admin/people/reader-renames/names');
    assert.equal(history.status, 200);
    assert.equal(history.body.name, 'Third Name');
    assert.deepEqual(
      (history.body.past as Json[]).map((p) => p.name),
      ['Second Name', 'First Name'],
    );
    const none = await chief.read('/v1/admin/people/reader-nobody/names');
    assert.deepEqual([none.status, none.body.name, none.body.past], [200, null, []]);
    const refused = await reader.read('/v1/admin/people/reader-renames/names');
    assert.deepEqual([refused.status, refused.body.code], [403, 'CONTENT_ADMIN_REQUIRED']);
  });
});
