import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateAgentKey } from '../../sdk/index.js';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { linkedHumanIdOf, newWallet, signedWithProof } from '../agents/support.js';
import { bindActor } from '../helpers/identity.js';
import { propose, ratify } from '../governance/support.js';
import { integrityApp, plantedNewsroom } from '../integrity/support.js';
import { siteBrowser } from '../helpers/site-browser.js';
import type { Json } from '../helpers/json.js';

/**
 * The findings that changed consensus or held payouts, linked from what they touched (inject): a story whose
 * latest consensus took weight off attestations from inside its author's flagged cluster links to that finding
 * on its moderation page (an untouched story does not), and a payout the cartel hold keeps for review links to
 * the finding that flagged its beneficiary or its owner in the review queue.
 */
const [ana, rita] = ['ana', 'rita'].map((name) => ({ name, key: devLinkedHumanId(name) }));

const owner = newWallet();
const findingPath = (analysisId: string, clusterId: string) => `/console/integrity/findings/${analysisId}/${clusterId}?lang=en`;

test('a discounted story and a held payout link to the collusion finding behind them; an untouched story does not', async () => {
  // ana: content and rewards admin; rita: rewards admin only (cannot open the integrity area)
  const ia = await integrityApp({
    HUMAN_PROOF_VERIFIER: 'dev',
    CONTENT_ADMIN_IDS: `h_admin,${ana!.key}`,
    REWARDS_ADMIN_IDS: `h_admin,${ana!.key},${rita!.key}`,
    AGENTBOOK_MODE: 'static',
    AGENTBOOK_STATIC: JSON.stringify({ [owner.account.address]: owner.humanId }),
  });
  try {
    const db = ia.g.t.db.database.db;
    const { ring, honest, readerRing } = await plantedNewsroom(ia);
    // before any analysis: a ring story's consensus carries no discount
    const [plain] = await ia.stories(ring[0]!, 1);
    for (const bot of [ring[1]!, ring[2]!, honest[1]!]) await ia.attest(bot, plain!);

    const analysis = await ia.analyze();
    assert.equal(analysis.status, 200, JSON.stringify(analysis.body));
    const { id: analysisId } = await db.selectFrom('integrity_analyses').select('id').executeTakeFirstOrThrow();
    const clusters = analysis.body.clusters as Json[];
    assert.equal(clusters.length, 2);
    const numberOf = (member: string) => clusters.findIndex((c) => (c.members as string[]).includes(member)) + 1;
    const ringCluster = clusters[numberOf(ring[0]!.botId) - 1]!;
    const readerCluster = clusters[numberOf(readerRing[1]!) - 1]!;
    assert.notEqual(ringCluster.id, readerCluster.id);

    const proposal = await propose(ia.g, { 'integrity.clusterAttestationDiscount': 1 }, 'Discount cartel attestations');
    assert.equal((await ratify(ia.g, proposal.id)).status, 202);
    assert.equal((await ia.g.post('admin', `/v1/admin/governance/proposals/${proposal.id}/activate`)).status, 202);
    const [discounted] = await ia.stories(ring[0]!, 1);
    for (const bot of [ring[1]!, ring[2]!, honest[1]!]) await ia.attest(bot, discounted!);
    const [untouched] = await ia.stories(honest[3]!, 1);
    for (const bot of [honest[1]!, honest[2]!, ring[0]!]) await ia.attest(bot, untouched!);

    const admin = siteBrowser(ia.g.t.app);
    await admin.devLogin(ana!.name);
    await admin.chooseName('Ana');
    const storyPage = async (id: string) => {
      const page = await admin.get(`/console/moderation/stories/${id}?lang=en`);
      assert.equal(page.statusCode, 200, page.body.slice(0, 300));
      return page.body;
    };

    // the discounted story: one line naming the finding and how many attestations lost weight, linked to the finding
    const marked = await storyPage(discounted!.storyId);
    const line = /<a href="([^"]+)">(Collusion finding[^<]*)<\/a>/.exec(marked);
    assert.ok(line, 'the discounted story links to its finding');
    assert.equal(line[1]!.replace(/&amp;/g, '&'), findingPath(analysisId, ringCluster.id));
    assert.equal(line[2], `Collusion finding ${numberOf(ring[0]!.botId)} took weight off 2 attestations`);
    assert.equal((await admin.get(line[1]!.replace(/&amp;/g, '&'))).statusCode, 200, 'the link opens the finding');
    // the same words in another language
    assert.match(
      (await admin.get(`/console/moderation/stories/${discounted!.storyId}?lang=de`)).body,
      /Absprache-Befund \d hat 2 Bestätigungen Gewicht abgezogen/,
    );
    // a story whose snapshot discounted nothing (an honest author), or whose snapshot predates the analysis: no line
    for (const story of [untouched!, plain!])
      assert.doesNotMatch(await storyPage(story.storyId), /Collusion finding|\/console\/integrity\/findings\//);

    // an honest bot owned by a flagged reader: verified with the owner's wallet, the reader's actor bound to the same linked human
    const ownedBot = generateAgentKey();
    assert.equal((await ia.n.client.agentWrite(ownedBot, '/v1/agents/join', { publicKey: ownedBot.publicKey, name: 'owned' })).status, 202);
    const verify = await signedWithProof(ia.g.t.app, {
      key: ownedBot,
      path: '/v1/agents/verify',
      body: { botId: ownedBot.botId },
      origin: ia.g.t.config.worldAgentkitResourceOrigins[0]!,
      wallet: owner.account,
    });
    assert.equal(verify.status, 202, JSON.stringify(verify.body));
    await bindActor(ia.g.t.db.database, readerRing[1]!, linkedHumanIdOf(owner.humanId), 'L3');
    await ia.upvote('honest-reader-0', (await ia.stories(ownedBot, 1))[0]!);

    // the settlement holds the payouts of the flagged members; the review queue links each to its finding
    await db
      .updateTable('stories')
      .set({ reward_window_ends_at: new Date(Date.now() - 60_000) })
      .where('published_at', 'is not', null)
      .execute();
    const run = await ia.g.post<Json>('admin', '/v1/rewards/settlements/run', { totalPoolOrbs: 1000 });
    assert.equal(run.status, 202, JSON.stringify(run.body));
    const payouts = (await ia.g.get<Json>('admin', '/v1/rewards/payouts', { settlementId: run.body.id, limit: '500' })).body
      .items as Json[];
    const heldOf = (kind: 'BOT' | 'HUMAN', id: string) =>
      payouts.find((p) => p.beneficiaryKind === kind && p.beneficiaryId === id && p.status === 'REVIEW')!;
    const botHeld = heldOf('BOT', ring[1]!.botId);
    const ownedHeld = heldOf('BOT', ownedBot.botId);
    assert.ok(botHeld && ownedHeld, 'a ring bot and the bot of a ring reader have payouts held for review');
    const notHeld = payouts.find((p) => p.status !== 'REVIEW')!;
    assert.ok(notHeld);

    const queue = await admin.get('/console/rewards/review?lang=en');
    assert.equal(queue.statusCode, 200, queue.body.slice(0, 300));
    const rowOf = (body: string, payoutId: string) => {
      const at = body.indexOf(`<code>${payoutId}</code>`);
      assert.ok(at >= 0, `the queue lists ${payoutId}`);
      return body.slice(at, body.indexOf('</tr>', at));
    };
    const linkIn = (row: string) => /<a href="([^"]+)">Held by collusion finding (\d+)<\/a>/.exec(row);
    // the ring bot by its own flag; the owned bot, not flagged itself, by its owner's (the linked human of a flagged reader)
    for (const [payout, member, cluster] of [
      [botHeld, ring[1]!.botId, ringCluster],
      [ownedHeld, readerRing[1]!, readerCluster],
    ] as const) {
      const link = linkIn(rowOf(queue.body, payout.id));
      assert.ok(link, `payout ${payout.id} links to its finding`);
      assert.equal(link[1]!.replace(/&amp;/g, '&'), findingPath(analysisId, cluster.id));
      assert.equal(Number(link[2]), numberOf(member));
    }
    assert.doesNotMatch(queue.body, new RegExp(`<code>${notHeld.id}</code>`), 'a payout not held is not in the queue');

    // a rewards admin who cannot open the integrity area reads which finding held it, without a link that would refuse them
    const other = siteBrowser(ia.g.t.app);
    await other.devLogin(rita!.name);
    await other.chooseName('Rita');
    const theirs = await other.get('/console/rewards/review?lang=en');
    assert.equal(theirs.statusCode, 200);
    const row = rowOf(theirs.body, botHeld.id);
    assert.match(row, new RegExp(`Held by collusion finding ${numberOf(ring[1]!.botId)}`));
    assert.doesNotMatch(row, /\/console\/integrity\/findings\//);

    // a later analysis that flags nobody: the story's snapshot still names the first analysis and links to its
    // finding; a held payout whose beneficiary the latest analysis no longer flags has no link
    const empty = await ia.analyze({ windowDays: 1, minClusterSize: 50 });
    assert.equal(empty.status, 200, JSON.stringify(empty.body));
    assert.equal(empty.body.clusters.length, 0);
    assert.ok((await storyPage(discounted!.storyId)).includes(`href="${findingPath(analysisId, ringCluster.id).replace(/&/g, '&amp;')}"`));
    const later = await admin.get('/console/rewards/review?lang=en');
    assert.doesNotMatch(rowOf(later.body, botHeld.id), /Held by collusion finding/);
  } finally {
    await ia.g.t.close();
  }
});
