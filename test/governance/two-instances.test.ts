import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newsroomClient } from '../helpers/newsroom.js';
import { governanceApp, propose, ratify, seedActivity, type GovernanceApp } from './support.js';
import type { Json } from '../helpers/json.js';

/**
 * Two app instances on one database: governance acts on instance A, and instance B's newsroom applies the
 * new values from its next request on (it reads the parameters per request; nothing is cached per instance).
 */
describe('a governance change applies on every instance from the next request on', () => {
  let a: GovernanceApp;
  let b: GovernanceApp;
  let newsroomB: ReturnType<typeof newsroomClient>;
  before(async () => {
    a = await governanceApp();
    b = await governanceApp({}, a.t.db);
    newsroomB = newsroomClient(b.t.baseUrl);
  });
  after(async () => {
    await b.t.close();
    await a.t.close();
  });

  /** Publishes a story on B and attests it once on B: the review status one attestation reaches there. */
  async function oneAttestationOnB(): Promise<string> {
    const story = await newsroomB.publishedStory();
    const reviewer = await newsroomB.joinBot();
    const res = await newsroomB.review(reviewer, 'attestations', story.storyId, story.hash);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    return res.body.reviewStatus!;
  }

  test('activation on A: B applies consensus.minAttestations=1 to its next attestation; an emergency on A raises it on B; clearing on A lowers it again', async () => {
    assert.equal(await oneAttestationOnB(), 'EMERGING', 'default: 3 attestations make CLEAR');

    const proposal = await propose(a, { 'consensus.minAttestations': 1 });
    await ratify(a, proposal.id);
    assert.equal((await a.post<Json>('admin', `/v1/admin/governance/proposals/${proposal.id}/activate`)).status, 202);
    assert.equal(await oneAttestationOnB(), 'CLEAR');
    const stateOnB = await b.get<Json>('admin', '/v1/admin/governance/state');
    const minAtt = stateOnB.body.parameters.find((p: Json) => p.name === 'consensus.minAttestations');
    assert.deepEqual([minAtt.value, minAtt.updatedByProposalId], [1, proposal.id]);

    await seedActivity(a.t.db, { flagsLastHour: 10 });
    const evaluation = await a.post<Json>('admin', '/v1/admin/governance/evaluate');
    assert.equal(evaluation.body.applied.overlay['consensus.minAttestations'], 2);
    assert.equal(await oneAttestationOnB(), 'EMERGING', 'the emergency overlay applies on B');

    assert.equal((await a.post<Json>('admin', '/v1/admin/governance/emergency/clear')).status, 202);
    assert.equal(await oneAttestationOnB(), 'CLEAR');
  });
});
