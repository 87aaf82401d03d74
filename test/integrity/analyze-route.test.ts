import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { propose, ratify } from '../governance/support.js';
import { integrityApp, plantedNewsroom } from './support.js';
import type { Json } from '../helpers/json.js';

const withoutTimes = (body: Json) => ({ ...body, analyzedAt: undefined, windowStart: undefined });

describe('POST /v1/admin/governance/cartel/analyze', () => {
  test('finds the planted ring and reader ring from signed activity, explains them, leaves the popular story alone, and answers the same twice', async () => {
    const ia = await integrityApp();
    try {
      const { ring, honest, readerRing, ringStories, popular } = await plantedNewsroom(ia);
      const res = await ia.analyze();
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const body = res.body;
      assert.equal(body.method, 'npmi-co-action-louvain/1');
      assert.equal(body.parameters.windowDays, 30);
      assert.equal(body.parameters.minClusterSize, 2);
      const flagged = new Set<string>(body.clusters.flatMap((c: Json) => c.members));
      const planted = new Set([...ring.map((b) => b.botId), ...readerRing]);
      assert.deepEqual([...flagged].sort(), [...planted].sort(), JSON.stringify(body.clusters.map((c: Json) => c.members)));
      for (const bot of honest) assert.ok(!flagged.has(bot.botId), 'an honest bot (the popular author or its attesters) is not flagged');

      // ordered by score; every cluster explains itself
      const scores = body.clusters.map((c: Json) => c.score);
      assert.deepEqual(
        scores,
        [...scores].sort((a, b) => b - a),
      );
      const botCluster = body.clusters.find((c: Json) => c.members.includes(ring[0]!.botId));
      assert.deepEqual([...botCluster.members].sort(), ring.map((b) => b.botId).sort(), 'the ring is one cluster');
      assert.equal(botCluster.size, 3);
      const attests = botCluster.evidence.edges.filter((e: Json) => e.channel === 'attests');
      assert.equal(attests.length, 6, 'every member attests every other member');
      for (const e of attests) {
        assert.equal(e.count, 3, 'three stories each');
        assert.ok(e.expected < e.count, 'chance predicts fewer');
      }
      assert.equal(botCluster.evidence.reciprocity, 1);
      for (const m of botCluster.evidence.members) {
        assert.equal(m.kind, 'bot');
        assert.equal(m.insideShare, 1);
        assert.ok(m.expectedInsideShare < 0.5, JSON.stringify(m));
      }
      const ringStoryIds = [...ringStories.values()].flat().map((s) => s.storyId);
      assert.deepEqual(botCluster.evidence.storyIds, [...ringStoryIds].sort());
      assert.ok(!botCluster.evidence.storyIds.includes(popular[0]!.storyId));
      const readerCluster = body.clusters.find((c: Json) => c.members.includes('ring-reader-0'));
      assert.ok(readerCluster.evidence.members.every((m: Json) => m.kind === 'actor' || ring.some((b) => b.botId === m.id)));

      // the same data and parameters: the same answer, byte for byte (only the times name when it ran)
      const again = await ia.analyze();
      assert.equal(JSON.stringify(withoutTimes(again.body)), JSON.stringify(withoutTimes(body)));

      // stored as the finding in force, audited, and read by evaluate as the collusion signal
      const db = ia.g.t.db.database.db;
      const analyses = await db.selectFrom('integrity_analyses').select(['id', 'member_count']).orderBy('seq').execute();
      assert.equal(analyses.length, 2);
      const members = await db.selectFrom('integrity_flagged_members').selectAll().where('analysis_id', '=', analyses[1]!.id).execute();
      assert.deepEqual(members.map((m) => m.member_id).sort(), [...planted].sort());
      const audit = await db.selectFrom('audit_events').select(['action', 'target']).where('action', '=', 'cartel.analyzed').execute();
      assert.equal(audit.length, 2);
      const evaluation = await ia.g.post<Json>('admin', '/v1/admin/governance/evaluate');
      assert.equal(evaluation.status, 200, JSON.stringify(evaluation.body));
      const collusion = evaluation.body.signals.find((s: Json) => s.name === 'collusion');
      assert.equal(collusion.available, true);
      assert.equal(collusion.collusion.analysisId, analyses[1]!.id);
      assert.equal(collusion.collusion.flaggedMembers, 7);
      assert.equal(collusion.tripped, true, '7 flagged members reach emergency.collusionMinMembers (6)');
      assert.deepEqual(evaluation.body.tripped, ['collusion']);
      assert.equal(evaluation.body.mutatingApplied, true);
    } finally {
      await ia.g.t.close();
    }
  });

  test('with integrity.clusterAttestationDiscount, attestations from inside the author’s flagged cluster stop counting, and the snapshot says so', async () => {
    const ia = await integrityApp();
    try {
      const { ring, honest } = await plantedNewsroom(ia);
      const consensus = async (storyId: string) =>
        (await (await fetch(`${ia.g.t.baseUrl}/v1/stories/${storyId}/consensus`)).json()) as Json;
      // before any analysis or parameter: two ring attestations and one honest one make a ring story CLEAR
      const [before] = await ia.stories(ring[0]!, 1);
      for (const bot of [ring[1]!, ring[2]!, honest[1]!]) await ia.attest(bot, before!);
      const plain = await consensus(before!.storyId);
      assert.equal(plain.snapshot.reviewStatus, 'CLEAR');
      assert.equal(plain.snapshot.attestations.weight, 3);
      assert.equal(plain.snapshot.clusterDiscount, undefined, 'the parameter is off by default');

      assert.equal((await ia.analyze()).status, 200);
      const proposal = await propose(ia.g, { 'integrity.clusterAttestationDiscount': 1 }, 'Discount cartel attestations');
      assert.equal((await ratify(ia.g, proposal.id)).status, 202);
      assert.equal((await ia.g.post('admin', `/v1/admin/governance/proposals/${proposal.id}/activate`)).status, 202);

      const [after] = await ia.stories(ring[0]!, 1);
      for (const bot of [ring[1]!, ring[2]!, honest[1]!]) await ia.attest(bot, after!);
      const discounted = await consensus(after!.storyId);
      assert.equal(discounted.snapshot.attestations.count, 3);
      assert.equal(discounted.snapshot.attestations.weight, 1, 'only the honest attestation counts');
      assert.equal(discounted.snapshot.reviewStatus, 'EMERGING');
      assert.equal(discounted.snapshot.clusterDiscount.applied, true);
      assert.equal(discounted.snapshot.clusterDiscount.attestations, 2);
      assert.equal(discounted.snapshot.clusterDiscount.weightRemoved, 2);
      assert.equal(discounted.snapshot.clusterDiscount.discount, 1);
      assert.match(discounted.snapshot.clusterDiscount.analysisId, /^ca_/);
      // the story page marks it, says how much weight was taken off, and links to what the mark means
      const page = (await ia.g.t.app.inject(`/stories/${after!.storyId}?lang=en`)).body;
      assert.match(
        page,
        /Collusion mark\.<\/strong> 2 attestations came from bots that the newsroom’s collusion analysis found acting together/,
      );
      assert.match(page, /href="\/how-it-works\?lang=en#collusion"/);
      // and the feed's card of it carries the mark; the honest story's card below does not
      const feed = (await ia.g.t.app.inject('/?lang=en&mode=recent&limit=50')).body;
      const cardOf = (id: string) => {
        const at = feed.indexOf(`/stories/${id}?`);
        assert.ok(at >= 0, `the feed lists ${id}`);
        return feed.slice(at, feed.indexOf('</li>', at));
      };
      assert.match(cardOf(after!.storyId), /Collusion mark: some attestations came from bots acting with the author/);
      const explained = await ia.g.t.app.inject('/how-it-works?lang=de');
      assert.equal(explained.statusCode, 200);
      assert.match(explained.body, /<h2 id="collusion">Die Absprache-Markierung<\/h2>/);

      // an honest author's story is untouched by the discount
      const [honestStory] = await ia.stories(honest[3]!, 1);
      for (const bot of [honest[1]!, honest[2]!, ring[0]!]) await ia.attest(bot, honestStory!);
      const untouched = await consensus(honestStory!.storyId);
      assert.equal(untouched.snapshot.attestations.weight, 3);
      assert.equal(untouched.snapshot.clusterDiscount.applied, false);
      assert.doesNotMatch((await ia.g.t.app.inject(`/stories/${honestStory!.storyId}?lang=en`)).body, /Collusion mark/);
      const recent = (await ia.g.t.app.inject('/?lang=en&mode=recent&limit=50')).body;
      const honestCard = recent.slice(recent.indexOf(`/stories/${honestStory!.storyId}?`));
      assert.doesNotMatch(honestCard.slice(0, honestCard.indexOf('</li>')), /Collusion mark/);
    } finally {
      await ia.g.t.close();
    }
  });

  test('refuses bad input and callers who are not content admins', async () => {
    const ia = await integrityApp();
    try {
      for (const body of [{ windowDays: 0 }, { windowDays: 366 }, { minClusterSize: 1 }, { windowDays: 1.5 }, { seed: 3 }]) {
        const res = await ia.analyze(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.code, 'VALIDATION_FAILED');
      }
      const reader = await ia.g.post<Json>('reader', '/v1/admin/governance/cartel/analyze');
      assert.equal(reader.status, 403);
      assert.equal(reader.body.code, 'CONTENT_ADMIN_REQUIRED');
      const empty = await ia.analyze({ windowDays: 7, minClusterSize: 3 });
      assert.equal(empty.status, 200);
      assert.deepEqual(empty.body.clusters, []);
      assert.equal(empty.body.parameters.windowDays, 7);
      assert.equal(empty.body.parameters.minClusterSize, 3);
      assert.equal(Date.parse(empty.body.analyzedAt) - Date.parse(empty.body.windowStart), 7 * 86_400_000);
    } finally {
      await ia.g.t.close();
    }
  });
});
