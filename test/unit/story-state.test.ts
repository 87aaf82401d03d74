import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { bucketForState, isPubliclyVisible, storyState, trendingScore } from '../../src/newsroom/stories/story-state.js';
import type { PublicationStage, ReviewStatus } from '../../src/newsroom/rows.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-03-10T12:00:00.000Z');
const none = { attestationWeight: 0, objectionWeight: 0, upVotes: 0, downVotes: 0, comments: 0 };
type Engagement = typeof none;
const score = (publishedAtMs: number, e: Partial<Engagement> = {}) =>
  trendingScore({ publishedAt: new Date(publishedAtMs), ...none, ...e });
const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} vs ${b}`);

describe('trendingScore', () => {
  test('no engagement scores the publication time alone, in units of 12.5 hours', () => {
    close(score(T0), T0 / 1000 / 45_000, 'time part');
    close(score(T0 + 12.5 * HOUR) - score(T0), 1, '12.5 h later is worth one more point');
  });

  test('engagement is log10 of 1 + 3·attestations + 2·up votes + comments − down votes − objections', () => {
    close(score(T0, { attestationWeight: 3 }) - score(T0), 1, '3 attestation weight: engagement 10');
    close(score(T0, { upVotes: 3, comments: 3 }) - score(T0), 1, 'up votes weigh 2, comments 1');
    close(score(T0, { attestationWeight: 33 }) - score(T0), 2, 'engagement 100');
    close(score(T0, { attestationWeight: 1 }), score(T0, { upVotes: 1, comments: 1 }), 'one attestation weighs an up vote and a comment');
    close(
      score(T0, { attestationWeight: 4, downVotes: 1, objectionWeight: 2 }),
      score(T0, { attestationWeight: 3 }),
      'down votes and objections subtract 1 each',
    );
  });

  test('negative engagement counts as none (the score never drops below the time part)', () => {
    close(score(T0, { downVotes: 50, objectionWeight: 7 }), score(T0), 'floored at engagement 1');
    close(score(T0, { upVotes: 1, downVotes: 2 }), score(T0), 'engagement exactly 1');
  });

  test('12.5 hours of age are worth a tenfold engagement', () => {
    close(score(T0, { attestationWeight: 3 }), score(T0 + 12.5 * HOUR), 'engagement 10 then = engagement 1 12.5 h later');
    assert.ok(score(T0, { attestationWeight: 4 }) > score(T0 + 12.5 * HOUR), 'more than tenfold stays ahead');
    assert.ok(score(T0, { attestationWeight: 2 }) < score(T0 + 12.5 * HOUR), 'less than tenfold falls behind');
  });

  test('trending order over time: a busy story (engagement 100) leads a quiet one (2) until it is log10(50) × 12.5 h ≈ 21.2 h newer', () => {
    const busy = score(T0, { attestationWeight: 33 }); // engagement 100
    const quietAt = (hours: number) => score(T0 + hours * HOUR, { comments: 1 }); // engagement 2
    const ranked = (hours: number) =>
      [['busy', busy] as const, ['quiet', quietAt(hours)] as const].sort((a, b) => b[1] - a[1]).map(([n]) => n);
    assert.deepEqual(ranked(1), ['busy', 'quiet']);
    assert.deepEqual(ranked(12.5), ['busy', 'quiet']);
    assert.deepEqual(ranked(21), ['busy', 'quiet']); // log10(2) + 21/12.5 = 1.98 < 2
    assert.deepEqual(ranked(22), ['quiet', 'busy']); // 2.06 > 2
    assert.deepEqual(ranked(48), ['quiet', 'busy']);
  });

  const engagement = fc.record({
    attestationWeight: fc.integer({ min: 0, max: 500 }),
    objectionWeight: fc.integer({ min: 0, max: 500 }),
    upVotes: fc.integer({ min: 0, max: 5_000 }),
    downVotes: fc.integer({ min: 0, max: 5_000 }),
    comments: fc.integer({ min: 0, max: 5_000 }),
  });
  const publishedAt = fc.integer({ min: Date.parse('2020-01-01T00:00:00Z'), max: Date.parse('2040-01-01T00:00:00Z') });
  const raw = (e: Engagement) => 1 + 3 * e.attestationWeight + 2 * e.upVotes + e.comments - e.downVotes - e.objectionWeight;

  test('property: for the same age, more attestations, up votes or comments never lower the score (and raise it once engagement is positive)', () => {
    fc.assert(
      fc.property(
        publishedAt,
        engagement,
        fc.constantFrom('attestationWeight', 'upVotes', 'comments'),
        fc.integer({ min: 1, max: 100 }),
        (at, e, field, more) => {
          const before = score(at, e);
          const after = score(at, { ...e, [field]: e[field as keyof Engagement] + more });
          assert.ok(after >= before);
          if (raw(e) >= 1) assert.ok(after > before, 'strictly higher');
        },
      ),
    );
  });

  test('property: for the same age, more down votes or objections never raise the score', () => {
    fc.assert(
      fc.property(
        publishedAt,
        engagement,
        fc.constantFrom('downVotes', 'objectionWeight'),
        fc.integer({ min: 1, max: 100 }),
        (at, e, field, more) => {
          assert.ok(score(at, { ...e, [field]: e[field as keyof Engagement] + more }) <= score(at, e));
        },
      ),
    );
  });

  test('property: for the same engagement, the newer story scores higher', () => {
    fc.assert(
      fc.property(publishedAt, fc.integer({ min: 1, max: 30 * 24 * HOUR }), engagement, (at, later, e) => {
        assert.ok(score(at + later, e) > score(at, e));
      }),
    );
  });
});

const STAGES: PublicationStage[] = ['CANDIDATE', 'PROVISIONAL', 'GRADUATED'];
const REVIEWS: ReviewStatus[] = ['EMERGING', 'CLEAR', 'CONTESTED', 'UNDER_REVIEW', 'RETRACTED'];

describe('storyState, bucketForState and isPubliclyVisible', () => {
  test('every (stage, review status) pair has the documented state', () => {
    const expected: Record<PublicationStage, Record<ReviewStatus, string | null>> = {
      CANDIDATE: { EMERGING: null, CLEAR: null, CONTESTED: null, UNDER_REVIEW: null, RETRACTED: null },
      PROVISIONAL: {
        EMERGING: 'PROVISIONAL',
        CLEAR: 'PROVISIONAL',
        CONTESTED: 'CONTESTED',
        UNDER_REVIEW: 'UNDER_REVIEW',
        RETRACTED: 'UNDER_REVIEW',
      },
      GRADUATED: {
        EMERGING: 'GRADUATED',
        CLEAR: 'GRADUATED',
        CONTESTED: 'CONTESTED',
        UNDER_REVIEW: 'UNDER_REVIEW',
        RETRACTED: 'UNDER_REVIEW',
      },
    };
    for (const stage of STAGES) {
      for (const review of REVIEWS) assert.equal(storyState(stage, review), expected[stage][review], `${stage}/${review}`);
    }
  });

  test('each state goes to its ledger bucket', () => {
    assert.equal(bucketForState('PROVISIONAL'), 'provisional');
    assert.equal(bucketForState('GRADUATED'), 'graduated');
    assert.equal(bucketForState('CONTESTED'), 'under-review');
    assert.equal(bucketForState('UNDER_REVIEW'), 'under-review');
  });

  test('quarantined and blocked stories are hidden; pending and allowed ones are public', () => {
    assert.equal(isPubliclyVisible('ALLOWED'), true);
    assert.equal(isPubliclyVisible('PENDING_SCAN'), true);
    assert.equal(isPubliclyVisible('QUARANTINED'), false);
    assert.equal(isPubliclyVisible('BLOCKED'), false);
  });
});
