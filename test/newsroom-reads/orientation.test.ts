import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LANGS } from '../../src/platform/schemas.js';
import { createReadsTestApp, HOUR_MS, NOW, type ReadsTestApp, type SeededStory } from '../helpers/newsroom-factory.js';
import type { Json } from '../helpers/json.js';

/** A whole word (Unicode-aware: "best" must not match inside "Bestätigt"). */
const word = (w: string) => new RegExp(`(?<!\\p{L})${w}(?!\\p{L})`, 'iu');
/** A word start (a stem: "recommend" also catches "recommended"). */
const stem = (w: string) => new RegExp(`(?<!\\p{L})${w}`, 'iu');

/**
 * Words and stems that would point a reader at a choice, in the five languages. The orientation must state
 * facts and requirements only, so none may appear anywhere in its JSON (keys or values), in any language.
 */
const RECOMMENDATION_PATTERNS = [
  word('should'),
  stem('recommend'),
  stem('suggest'),
  word('best'),
  stem('advis'),
  word('we advise'),
  word('you must vote'),
  word('ideally'),
  stem('encourag'),
  word('consider'),
  stem('deber[ií]a'),
  stem('recomend'),
  stem('sugier'),
  stem('aconsej'),
  word('mejor'),
  stem('sollte'),
  stem('empfehl'),
  word('am besten'),
  word('raten'),
  stem('devri?ez'),
  stem('recommand'),
  stem('sugg[eé]r'),
  stem('conseill'),
  stem('meilleur'),
  /建议/,
  /应该/,
  /推荐/,
  /最好/,
  /应当/,
  /鼓励/,
];

const ACTION_ORDER = ['comment', 'flag', 'reward-vote', 'bookmark', 'follow-topic', 'verify-human-action'];

function assertNeutral(body: unknown, where: string) {
  const text = JSON.stringify(body);
  for (const pattern of RECOMMENDATION_PATTERNS) assert.doesNotMatch(text, pattern, `${where} contains ${pattern}`);
  // No field may carry a direction: no "recommended", "preferred", "default" or score on any action or option.
  assert.doesNotMatch(text, /"(recommended|preferred|suggested|default(Option|Choice)?|priority|score)"\s*:/i, where);
}

describe('assistant orientation', () => {
  let t: ReadsTestApp;
  const stories: Record<string, SeededStory> = {};
  before(async () => {
    t = await createReadsTestApp();
    const f = t.factory;
    stories.candidate = await f.story({ stage: 'CANDIDATE' });
    stories.provisional = await f.story({ review: 'EMERGING' });
    stories.clear = await f.story({ review: 'CLEAR' });
    stories.contested = await f.story({ review: 'CONTESTED' });
    stories.underReview = await f.story({ review: 'UNDER_REVIEW' });
    stories.retracted = await f.story({ review: 'RETRACTED' });
    stories.graduated = await f.story({ stage: 'GRADUATED', review: 'CLEAR' });
    stories.closedWindow = await f.story({ publishedAt: new Date(NOW - 80 * HOUR_MS), rewardWindowEndsAt: new Date(NOW - 8 * HOUR_MS) });
  });
  after(() => t.close());

  test('GET /v1/assistant/orientation lists modules, action types, gating facts, credentials and evidence links', async () => {
    const res = await t.get<Json>('/v1/assistant/orientation');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), [
      'actionTypes',
      'credentials',
      'evidenceLinks',
      'gatingFacts',
      'generatedAt',
      'lang',
      'modules',
      'neutrality',
      'order',
      'purpose',
      'title',
    ]);
    assert.deepEqual(
      res.body.modules.map((m: Json) => m.id),
      ['home', 'feed', 'search', 'developing', 'under-review', 'ledger', 'reward-window', 'rankings'],
    );
    assert.ok(res.body.modules.every((m: Json) => m.title && m.description && m.href.startsWith('/v1/')));
    assert.deepEqual(
      res.body.actionTypes.map((a: Json) => a.id),
      ACTION_ORDER,
    );
    const flag = res.body.actionTypes.find((a: Json) => a.id === 'flag');
    assert.equal(flag.route, '/v1/stories/{id}/flags');
    assert.equal(flag.method, 'POST');
    assert.equal(flag.authentication, 'human-signed-write');
    assert.deepEqual(
      flag.options.map((o: Json) => [o.value, o.requiredCredentials]),
      [
        ['LOW', ['human-signed-write']],
        ['MEDIUM', ['human-signed-write']],
        ['HIGH', ['human-signed-write', 'flag-high-severity']],
      ],
    );
    const vote = res.body.actionTypes.find((a: Json) => a.id === 'reward-vote');
    assert.deepEqual(
      vote.options.map((o: Json) => o.value),
      ['UP', 'DOWN'],
    );
    assert.deepEqual(
      res.body.credentials.map((c: Json) => [c.id, c.humanAction ?? null]),
      [
        ['human-signed-write', null],
        ['flag-high-severity', 'flag_high_severity:<claimId>'],
        ['graduate', 'graduate:<storyId>'],
        ['human-proof', null],
      ],
    );
    assert.deepEqual(res.body.gatingFacts.thresholds, {
      minAttestations: 3,
      contestedObjectionRatio: 0.4,
      minObjections: 2,
      graduationMinAttestations: 5,
      revisionAcceptVotes: 2,
      revisionRejectVotes: 2,
      rewardWindowHours: 72,
    });
    assert.deepEqual(
      res.body.evidenceLinks.map((l: Json) => l.id),
      ['story', 'sources', 'machine-room', 'versions', 'consensus', 'comments', 'flags', 'ledger'],
    );
    assert.ok(
      res.body.actionTypes.every((a: Json) => !('gate' in a)),
      'the global orientation has no story to gate on',
    );
  });

  test('a story orientation gives its status, the gates of each action now, required credentials and evidence links', async () => {
    const story = stories.provisional!;
    const res = await t.get<Json>(`/v1/stories/${story.id}/assistant-orientation`);
    assert.equal(res.status, 200);
    assert.equal(res.body.storyId, story.id);
    assert.deepEqual(res.body.status, {
      state: 'PROVISIONAL',
      reviewStatus: 'EMERGING',
      publicationStage: 'PROVISIONAL',
      labels: { state: 'Provisional', reviewStatus: 'Emerging', publicationStage: 'Provisional' },
      version: 1,
      packetHash: story.packetHash,
    });
    const gates = Object.fromEntries(res.body.actionTypes.map((a: Json) => [a.id, a.gate.open]));
    assert.deepEqual(gates, {
      comment: true,
      flag: true,
      'reward-vote': true,
      bookmark: true,
      'follow-topic': true,
      'verify-human-action': true,
    });
    const vote = res.body.actionTypes.find((a: Json) => a.id === 'reward-vote');
    assert.equal(vote.route, `/v1/stories/${story.id}/reward-votes`);
    const closesAt = new Date(NOW - HOUR_MS + 72 * HOUR_MS).toISOString();
    assert.equal(vote.gate.explanation, `The reward window is open until ${closesAt}.`);
    assert.deepEqual(res.body.gatingFacts.rewardWindow, {
      opensAt: new Date(NOW - HOUR_MS).toISOString(),
      closesAt,
      active: true,
      explanation: vote.gate.explanation,
    });
    assert.equal(res.body.gatingFacts.currentPacketHash, story.packetHash);
    assert.equal(res.body.gatingFacts.graduation.requiredHumanAction, `graduate:${story.id}`);
    assert.deepEqual(res.body.gatingFacts.graduation.requiredCredentials, ['graduate']);
    assert.deepEqual(
      res.body.gatingFacts.highSeverityFlags,
      story.packet.claims.map((c) => ({ claimId: c.id, requiredHumanAction: `flag_high_severity:${c.id}` })),
    );
    assert.ok(res.body.gatingFacts.explanations.some((e: Json) => e.id === 'packet-hash' && e.text.includes(story.packetHash)));
    assert.equal(res.body.evidenceLinks.find((l: Json) => l.id === 'machine-room').href, `/v1/stories/${story.id}/machine-room`);
    const verify = res.body.actionTypes.find((a: Json) => a.id === 'verify-human-action');
    assert.deepEqual(
      verify.options.map((o: Json) => o.value),
      [`graduate:${story.id}`, `reward:${story.id}`, 'flag_high_severity:<claimId>'],
    );
  });

  test('gates state facts: a closed window, and a candidate whose actions are not open yet', async () => {
    const closed = await t.get<Json>(`/v1/stories/${stories.closedWindow!.id}/assistant-orientation?lang=de`);
    const vote = closed.body.actionTypes.find((a: Json) => a.id === 'reward-vote');
    assert.equal(vote.gate.open, false);
    assert.match(vote.gate.explanation, /geschlossen/);
    assert.equal(closed.body.actionTypes.find((a: Json) => a.id === 'comment').gate.open, true);

    const candidate = await t.get<Json>(`/v1/stories/${stories.candidate!.id}/assistant-orientation`);
    assert.equal(candidate.status, 200);
    const gates = Object.fromEntries(candidate.body.actionTypes.map((a: Json) => [a.id, a.gate.open]));
    assert.deepEqual(gates, {
      comment: false,
      flag: false,
      'reward-vote': false,
      bookmark: false,
      'follow-topic': true,
      'verify-human-action': false,
    });
    assert.equal(
      candidate.body.gatingFacts.rewardWindow.explanation,
      'The reward window opens when the story is published and lasts 72 hours.',
    );
  });

  test('action types and options come in one fixed order whatever the story state', async () => {
    const shapes = new Set<string>();
    for (const [name, story] of Object.entries(stories)) {
      const res = await t.get<Json>(`/v1/stories/${story.id}/assistant-orientation`);
      assert.equal(res.status, 200, name);
      assert.deepEqual(
        res.body.actionTypes.map((a: Json) => a.id),
        ACTION_ORDER,
        name,
      );
      shapes.add(
        JSON.stringify(res.body.actionTypes.map((a: Json) => [a.id, a.options.map((o: Json) => o.value.replace(story.id, '<storyId>'))])),
      );
    }
    const global = await t.get<Json>('/v1/assistant/orientation');
    shapes.add(JSON.stringify(global.body.actionTypes.map((a: Json) => [a.id, a.options.map((o: Json) => o.value)])));
    assert.equal(shapes.size, 1, 'the same actions and options in the same order everywhere');
  });

  test('no text or field in any language recommends a direction (vote up or down, flag, reward or not)', async () => {
    for (const lang of LANGS) {
      assertNeutral((await t.get(`/v1/assistant/orientation?lang=${lang}`)).body, `global ${lang}`);
      for (const [name, story] of Object.entries(stories)) {
        const res = await t.get(`/v1/stories/${story.id}/assistant-orientation?lang=${lang}`);
        assert.equal(res.status, 200);
        assertNeutral(res.body, `${name} ${lang}`);
      }
    }
  });

  test('the neutrality check itself catches recommendation wording', () => {
    for (const sample of [
      'You should vote UP',
      'We recommend flagging',
      'Deberías votar',
      'Sie sollten abstimmen',
      'Vous devriez voter',
      '我们建议投票',
      '你应该投票',
      { recommended: 'UP' },
    ]) {
      assert.throws(() => assertNeutral(sample, 'sample'));
    }
  });

  test('a hidden or unknown story has no orientation (404)', async () => {
    const hidden = await t.factory.story({ moderation: 'BLOCKED' });
    assert.equal((await t.get(`/v1/stories/${hidden.id}/assistant-orientation`)).status, 404);
    assert.equal((await t.get('/v1/stories/st_nope/assistant-orientation')).status, 404);
  });
});
