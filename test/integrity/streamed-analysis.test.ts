import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { planNewsroom } from '../../bench/integrity/newsroom-plan.js';
import { seedNewsroom } from '../../bench/integrity/seed-newsroom.js';
import { ActCollector } from '../../src/governance/integrity/acts.js';
import { analyzeActs, DEFAULT_PARAMETERS, type AnalysisParameters } from '../../src/governance/integrity/cartel-analysis.js';
import type {
  FlagRow,
  Interactions,
  ReviewRow,
  RevisionVoteRow,
  RewardVoteRow,
  StoryRow,
} from '../../src/governance/integrity/interactions.js';
import { Interner } from '../../src/platform/interner.js';
import type { WindowReader } from '../../src/governance/integrity/interactions.js';
import { integrityInteractions } from '../../src/composition.js';
import { readInteractionWindow as readWindow } from '../../src/newsroom/interactions-repository.js';
import { seededRandom } from '../../src/governance/integrity/seeded-random.js';
import { createIntegrityService } from '../../src/governance/integrity/service.js';
import { createTransactor, withTransaction } from '../../src/platform/db/transaction.js';
import { createTestDatabase, type TestDatabase } from '../helpers/app.js';
import { fuzzRuns } from '../helpers/fuzz.js';
import { shuffled } from '../helpers/shuffled.js';
import { referenceAnalysis } from './reference-analysis.js';

/** `rows` in slices of 1 to `max` rows, the sizes drawn from `rand`. */
function* batches<T>(rows: T[], max: number, rand: () => number): Generator<T[]> {
  for (let i = 0; i < rows.length;) {
    const size = 1 + Math.floor(rand() * max);
    yield rows.slice(i, i + size);
    i += size;
  }
}

/**
 * A simulated newsroom with what the simulator never writes added: attestations of one's own story, a reader
 * flagging a story twice (two claims), a story that only a flag names, all in the rows' own order.
 */
function newsroom(seed: number): Interactions {
  const { data } = planNewsroom(seed);
  const rand = seededRandom(seed);
  const pick = <T>(rows: T[]) => rows[Math.floor(rand() * rows.length)]!;
  const own = Array.from({ length: 5 }, () => pick(data.reviews)).map((r) => ({ ...r, botId: r.authorBotId }));
  const twice = Array.from({ length: 5 }, () => pick(data.flags));
  const lone = { actorId: pick(data.flags).actorId, storyId: `st_lone_${seed}`, authorBotId: `bot_lone_${seed}`, room: 'world' };
  return { ...data, reviews: [...data.reviews, ...own], flags: [...data.flags, ...twice, lone] };
}

/** Parameters that also drop crowds and score sparse pairs, so every branch of the chance model runs. */
const parameters = fc.record({
  maxCoActors: fc.integer({ min: 2, max: 60 }),
  minPairCount: fc.integer({ min: 2, max: 4 }),
  minClusterSize: fc.integer({ min: 2, max: 3 }),
});

describe('cartel analysis read as a stream of acts', () => {
  test('rows handed over in batches of any size give the reference analysis of the same rows, byte for byte', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        parameters,
        (seed, maxBatch, order, changes) => {
          const data = newsroom(seed);
          const p: AnalysisParameters = { ...DEFAULT_PARAMETERS, ...changes };
          const rand = seededRandom(order);
          const collector = new ActCollector();
          for (const rows of batches(data.reviews, maxBatch, rand)) collector.addReviews(rows);
          for (const rows of batches(data.revisionVotes, maxBatch, rand)) collector.addRevisionVotes(rows);
          for (const rows of batches(data.rewardVotes, maxBatch, rand)) collector.addRewardVotes(rows);
          for (const rows of batches(data.flags, maxBatch, rand)) collector.addFlags(rows);
          // the stories as the database answers them: one row each, any order, and some the acts do not name
          const stories = new Map<string, StoryRow>();
          for (const r of [...data.reviews, ...data.rewardVotes, ...data.flags])
            stories.set(r.storyId, { id: r.storyId, authorBotId: r.authorBotId, room: r.room });
          for (const v of data.revisionVotes)
            if (!stories.has(v.storyId)) stories.set(v.storyId, { id: v.storyId, authorBotId: 'bot_unread', room: v.room });
          const storyRows = [...stories.values(), { id: 'st_not_in_the_window', authorBotId: 'bot_elsewhere', room: 'elsewhere' }];
          for (const rows of batches(shuffled(storyRows, rand), maxBatch, rand)) collector.addStories(rows);
          assert.equal(JSON.stringify(analyzeActs(collector.finish(), p)), JSON.stringify(referenceAnalysis(data, p)));
        },
      ),
      { numRuns: fuzzRuns(40, 4) },
    );
  });

  test('interned ids are the order of first appearance, whatever the strings (and however many collide)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.string({ unit: 'binary' }), fc.constantFrom('st_1', 'st_10', 'bot_1')), {
          maxLength: 2000,
        }),
        (values) => {
          const interner = new Interner();
          const first = new Map<string, number>();
          for (const v of values) {
            if (!first.has(v)) first.set(v, first.size);
            assert.equal(interner.of(v), first.get(v));
          }
          assert.deepEqual(interner.list, [...first.keys()]);
          for (const v of [...values, 'never interned']) assert.equal(interner.find(v), first.get(v) ?? -1);
        },
      ),
      { numRuns: fuzzRuns(200, 30) },
    );
  });

  test('an act whose story was never read is refused, not analyzed in a wrong room', () => {
    const collector = new ActCollector();
    collector.addReviews([{ botId: 'bot_a', storyId: 'st_1', kind: 'ATTESTATION' }]);
    assert.deepEqual(collector.storyIds(), ['st_1']);
    assert.throws(() => collector.finish(), /st_1/);
  });

  describe('through the database', () => {
    const NOW = Date.parse('2026-11-20T12:00:00.000Z');
    const windowStart = new Date(NOW - 30 * 86_400_000);
    const plan = planNewsroom(7);
    let t: TestDatabase;

    before(async () => {
      t = await createTestDatabase();
      await seedNewsroom(t.owner.db, plan, NOW);
      // acts before the window: read by nobody
      const [story] = plan.stories;
      await t.owner.db
        .insertInto('agent_reviews')
        .values(
          [...new Set(plan.data.reviews.map((r) => r.botId))].slice(0, 50).map((botId, i) => ({
            id: `rv_old_${i}`,
            story_id: story!.id,
            packet_hash: 'an older packet',
            bot_id: botId,
            verified: false,
            kind: 'ATTESTATION' as const,
            weight: 1,
            created_at: new Date(windowStart.getTime() - 1000 - i),
          })),
        )
        .execute();
    });
    after(() => t.drop());

    test('the window read through cursors in small batches is the window’s rows, and analyzes as the reference does', async () => {
      const collector = new ActCollector();
      // the same batches, kept as rows in the order they came: the reference analyzes exactly what was streamed
      const rows = {
        reviews: [] as ReviewRow[],
        revisionVotes: [] as RevisionVoteRow[],
        rewardVotes: [] as RewardVoteRow[],
        flags: [] as FlagRow[],
      };
      const stories = new Map<string, StoryRow>();
      const recorder: WindowReader = {
        addReviews: (batch) => (rows.reviews.push(...batch), collector.addReviews(batch)),
        addRevisionVotes: (batch) => (rows.revisionVotes.push(...batch), collector.addRevisionVotes(batch)),
        addRewardVotes: (batch) => (rows.rewardVotes.push(...batch), collector.addRewardVotes(batch)),
        addFlags: (batch) => (rows.flags.push(...batch), collector.addFlags(batch)),
        storyIds: () => collector.storyIds(),
        addStories: (batch) => {
          assert.ok(batch.length <= 97);
          for (const s of batch) stories.set(s.id, s);
          collector.addStories(batch);
        },
      };
      const transactor = createTransactor(t.database.db, []);
      await withTransaction(transactor, (tx) => readWindow(tx, windowStart, recorder, 97));
      assert.equal(rows.reviews.length, plan.data.reviews.length, 'the reviews before the window are left out');
      assert.ok(rows.reviews.length > 97 * 3, 'several batches');
      const story = (id: string) => stories.get(id)!;
      const streamed: Interactions = {
        reviews: rows.reviews.map((r) => ({ ...r, authorBotId: story(r.storyId).authorBotId!, room: story(r.storyId).room })),
        revisionVotes: rows.revisionVotes.map((v) => ({ ...v, room: story(v.storyId).room })),
        rewardVotes: rows.rewardVotes.map((v) => ({ ...v, authorBotId: story(v.storyId).authorBotId!, room: story(v.storyId).room })),
        flags: rows.flags.map((f) => ({ ...f, authorBotId: story(f.storyId).authorBotId!, room: story(f.storyId).room })),
      };
      const answer = analyzeActs(collector.finish(), DEFAULT_PARAMETERS);
      assert.equal(JSON.stringify(answer), JSON.stringify(referenceAnalysis(streamed, DEFAULT_PARAMETERS)));
      // and the rows are the planned ones, whatever order the database returned them in
      assert.equal(JSON.stringify(answer), JSON.stringify(referenceAnalysis(plan.data, DEFAULT_PARAMETERS)));
      assert.ok(answer.clusters.length > 0, 'the planted groups are found');
    });

    test('the service answers what the reference answers for the planned rows', async () => {
      const service = createIntegrityService({
        transactor: createTransactor(t.database.db, []),
        clock: { now: () => NOW },
        interactions: integrityInteractions,
      });
      const admin = { kind: 'human' as const, actorId: 'test-admin', linkedHumanId: 'h_test', verified: true, tier: 'L3' as const };
      const { summary, clusters } = await service.analyze(admin, { actorId: admin.actorId, verified: true });
      assert.equal(JSON.stringify({ summary, clusters }), JSON.stringify(referenceAnalysis(plan.data, DEFAULT_PARAMETERS)));
    });
  });
});
