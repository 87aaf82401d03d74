import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { planNewsroom } from '../../bench/integrity/newsroom-plan.js';
import { analyzeCartels, DEFAULT_PARAMETERS } from '../../src/governance/integrity/cartel-analysis.js';
import { npmi } from '../../src/governance/integrity/co-action-edges.js';
import type { Interactions } from '../../src/governance/integrity/interactions.js';
import { seededRandom } from '../../src/governance/integrity/seeded-random.js';
import { fuzzRuns } from '../helpers/fuzz.js';
import { shuffled } from '../helpers/shuffled.js';

/**
 * An honest newsroom: bots review stories in proportion to their popularity, busy and quiet bots alike, and
 * one story draws every bot. Optionally a ring of `ring` bots that attest each other's stories.
 */
function honestNewsroom(options: { seed: number; ring?: number }): { data: Interactions; ring: string[]; popularAuthor: string } {
  const rand = seededRandom(options.seed);
  const bots = Array.from({ length: 80 }, (_, i) => `bot_honest_${i}`);
  const ring = Array.from({ length: options.ring ?? 0 }, (_, i) => `bot_ring_${i}`);
  const stories = [...bots, ...ring].flatMap((author, a) =>
    Array.from({ length: 3 }, (_, i) => ({
      id: `st_${a}_${i}`,
      authorBotId: author,
      room: 'world',
      weight: 1 / Math.pow(rand() + 0.02, 1.3),
    })),
  );
  const total = stories.reduce((s, x) => s + x.weight, 0);
  const popular = () => {
    let x = rand() * total;
    for (const s of stories) if ((x -= s.weight) <= 0) return s;
    return stories[stories.length - 1]!;
  };
  const data: Interactions = { reviews: [], revisionVotes: [], rewardVotes: [], flags: [] };
  const seen = new Set<string>();
  const review = (botId: string, s: (typeof stories)[number], kind: 'ATTESTATION' | 'OBJECTION' = 'ATTESTATION') => {
    if (s.authorBotId === botId || seen.has(`${botId}|${s.id}`)) return;
    seen.add(`${botId}|${s.id}`);
    data.reviews.push({ botId, storyId: s.id, authorBotId: s.authorBotId, room: s.room, kind });
  };
  const star = stories[0]!;
  for (const bot of bots) {
    review(bot, star);
    const busy = rand() < 0.2 ? 80 : 15;
    for (let i = 0; i < busy; i++) review(bot, popular(), rand() < 0.85 ? 'ATTESTATION' : 'OBJECTION');
  }
  for (const bot of ring) for (const s of stories) if (ring.includes(s.authorBotId)) review(bot, s);
  for (let r = 0; r < 60; r++) {
    for (let i = 0; i < 12; i++) {
      const s = popular();
      if (seen.has(`reader_${r}|${s.id}`)) continue;
      seen.add(`reader_${r}|${s.id}`);
      data.rewardVotes.push({ actorId: `reader_${r}`, storyId: s.id, authorBotId: s.authorBotId, room: s.room, vote: 'UP' });
    }
  }
  return { data, ring, popularAuthor: star.authorBotId };
}

/**
 * A small newsroom, a demo's size: 12 honest bots writing 2 stories each, every story attested by 3 other honest
 * bots chosen at random, and 6 readers up-voting 3 stories each at random; planted into it a ring of 3 bots that
 * write `ringStories` stories each and attest every story of the other two, and nothing else.
 */
function smallNewsroom(ringStories: number, seed = 3): { data: Interactions; ring: string[]; honest: string[] } {
  const rand = seededRandom(seed);
  const honest = Array.from({ length: 12 }, (_, i) => `bot_small_${i}`);
  const ring = ['bot_ring_a', 'bot_ring_b', 'bot_ring_c'];
  const readers = Array.from({ length: 6 }, (_, i) => `reader_small_${i}`);
  const stories = [
    ...honest.flatMap((author) => [0, 1].map((k) => ({ id: `st_${author}_${k}`, authorBotId: author, room: 'world' }))),
    ...ring.flatMap((author) =>
      Array.from({ length: ringStories }, (_, k) => ({ id: `st_${author}_${k}`, authorBotId: author, room: 'world' })),
    ),
  ];
  const data: Interactions = { reviews: [], revisionVotes: [], rewardVotes: [], flags: [] };
  for (const story of stories) {
    if (ring.includes(story.authorBotId)) {
      for (const bot of ring)
        if (bot !== story.authorBotId)
          data.reviews.push({ botId: bot, storyId: story.id, authorBotId: story.authorBotId, room: 'world', kind: 'ATTESTATION' });
      continue;
    }
    const chosen = new Set<string>();
    while (chosen.size < 3) {
      const bot = honest[Math.floor(rand() * honest.length)]!;
      if (bot !== story.authorBotId) chosen.add(bot);
    }
    for (const bot of chosen)
      data.reviews.push({ botId: bot, storyId: story.id, authorBotId: story.authorBotId, room: 'world', kind: 'ATTESTATION' });
  }
  const honestStories = stories.filter((s) => !ring.includes(s.authorBotId));
  for (const reader of readers)
    for (let k = 0; k < 3; k++) {
      const story = honestStories[Math.floor(rand() * honestStories.length)]!;
      if (!data.rewardVotes.some((v) => v.actorId === reader && v.storyId === story.id))
        data.rewardVotes.push({ actorId: reader, storyId: story.id, authorBotId: story.authorBotId, room: 'world', vote: 'UP' });
    }
  return { data, ring, honest: [...honest, ...readers] };
}

describe('cartel analysis (the method)', () => {
  test('the same rows in any order give the same answer, byte for byte', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 2 ** 31 }), (seed, order) => {
        const { data } = planNewsroom(seed);
        const rand = seededRandom(order);
        const reordered: Interactions = {
          reviews: shuffled(data.reviews, rand),
          revisionVotes: shuffled(data.revisionVotes, rand),
          rewardVotes: shuffled(data.rewardVotes, rand),
          flags: shuffled(data.flags, rand),
        };
        assert.equal(
          JSON.stringify(analyzeCartels(reordered, DEFAULT_PARAMETERS)),
          JSON.stringify(analyzeCartels(data, DEFAULT_PARAMETERS)),
        );
      }),
      // 238 and 1: a pair's chance expectation once summed its rooms in the order the rows met them, and the
      // last bit of the sum moved a rounded figure
      { numRuns: fuzzRuns(30, 3), examples: [[238, 1]] },
    );
  });

  test('an honest newsroom with one story every bot attests and busy bots that overlap flags nobody', () => {
    for (const seed of [1, 2, 3]) {
      const { data, popularAuthor } = honestNewsroom({ seed });
      const { clusters, summary } = analyzeCartels(data, DEFAULT_PARAMETERS);
      assert.ok(summary.acts > 1500, 'a busy newsroom');
      assert.deepEqual(
        clusters.map((c) => c.members),
        [],
        `seed ${seed}: no honest cluster (popular author ${popularAuthor})`,
      );
    }
  });

  test('the same honest newsroom with a ring planted: the ring and only the ring', () => {
    const { data, ring } = honestNewsroom({ seed: 4, ring: 4 });
    const { clusters } = analyzeCartels(data, DEFAULT_PARAMETERS);
    assert.deepEqual(
      clusters.map((c) => c.members),
      [ring],
    );
    const [cluster] = clusters;
    assert.equal(cluster!.evidence.edges.filter((e) => e.channel === 'attests').length, 12, 'each of 4 attests the 3 others');
    assert.equal(cluster!.evidence.storyCount, 12);
    assert.ok(cluster!.evidence.lift > 2);
  });

  test('a simulated newsroom: planted pairs, rings, a camouflaged ring and a reader ring are found, nobody honest is', () => {
    const plan = planNewsroom(1);
    const planted = new Set(plan.planted.flatMap((g) => g.members));
    const flagged = analyzeCartels(plan.data, DEFAULT_PARAMETERS).clusters.flatMap((c) => c.members);
    assert.deepEqual([...flagged].sort(), [...planted].sort());
  });

  test('a beneficiary: bots that attest only one author’s stories, in lock-step, are flagged with the author they serve', () => {
    const { data } = honestNewsroom({ seed: 5 });
    const fans = ['bot_fan_0', 'bot_fan_1', 'bot_fan_2'];
    for (let i = 0; i < 6; i++)
      for (const fan of fans)
        data.reviews.push({ botId: fan, storyId: `st_idol_${i}`, authorBotId: 'bot_idol', room: 'world', kind: 'ATTESTATION' });
    const { clusters } = analyzeCartels(data, DEFAULT_PARAMETERS);
    assert.deepEqual(
      clusters.map((c) => c.members),
      [['bot_fan_0', 'bot_fan_1', 'bot_fan_2', 'bot_idol']],
    );
    const idol = clusters[0]!.evidence.members.find((m) => m.id === 'bot_idol')!;
    assert.deepEqual(
      { acts: idol.acts, insideShare: idol.insideShare, received: idol.received, receivedInside: idol.receivedInside },
      { acts: 0, insideShare: 0, received: 18, receivedInside: 18 },
    );
    assert.equal(clusters[0]!.evidence.meanInsideShare, 1, 'the mean over the members who acted');
  });

  test('a ring of three on a small newsroom: seen from 3 stories each (every pair then has 3 attestations), not at 2; nobody honest either way', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      // 2 stories each: every pair of the ring has 2 attestations on a channel, under minPairCount (3): nothing to score
      const quiet = smallNewsroom(2, seed);
      const { clusters: none } = analyzeCartels(quiet.data, DEFAULT_PARAMETERS);
      assert.deepEqual(
        none.flatMap((c) => c.members),
        [],
        `seed ${seed}: a ring below the evidence floor is not flagged, and nobody honest is`,
      );
      // the same floor one lower flags it: it is the pair count, not the chance model, that hides a quiet ring
      const lowered = analyzeCartels(quiet.data, { ...DEFAULT_PARAMETERS, minPairCount: 2 }).clusters;
      assert.deepEqual(lowered.flatMap((c) => c.members).sort(), quiet.ring, `seed ${seed}: with minPairCount 2 the ring is seen`);

      // 3 stories each: 3 attestations per pair, far beyond chance: the ring, whole, and only the ring
      const busy = smallNewsroom(3, seed);
      const { clusters } = analyzeCartels(busy.data, DEFAULT_PARAMETERS);
      assert.equal(clusters.length, 1, `seed ${seed}: ${JSON.stringify(clusters.map((c) => c.members))}`);
      assert.deepEqual(clusters[0]!.members, busy.ring);
      assert.equal(clusters[0]!.evidence.insideActs, 18, 'each of the 3 attests the 6 stories of the other two');
      for (const m of busy.honest) assert.ok(!clusters[0]!.members.includes(m));
    }
  });

  test('NPMI: 0 when the count is what chance predicts, towards 1 far above it, negative below', () => {
    assert.equal(npmi(5, 5, 100), 0);
    assert.ok(npmi(5, 0.01, 100) > 0.9);
    assert.ok(npmi(5, 20, 100) < 0);
    assert.equal(npmi(10, 1, 10), 1, 'every opportunity taken');
  });
});
