import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { TEST_SECRET } from '../helpers/app.js';
import { bindActor } from '../helpers/identity.js';
import { approve, fileRequest, governanceApp, propose, proofFor, type GovernanceApp } from '../governance/support.js';
import type { Json } from '../helpers/json.js';

/** Linked human ids as a real deployment derives them: `h_` + 32 hex of SHA-256. */
const linkedId = (seed: string) => `h_${createHash('sha256').update(seed).digest('hex').slice(0, 32)}`;
const ADMIN = linkedId('world_id:admin');
const TREASURER = linkedId('world_id:treasurer');
const APPROVER_1 = linkedId('world_id:approver-1');
const APPROVER_2 = linkedId('world_id:approver-2');

/**
 * An actorId is the front end's own name for its user; a person's rights follow the linked human id that only
 * a World ID login binds. These are the requests of somebody who spells an actorId like an allowlisted person.
 */
describe('an actorId spelled like a linked human id borrows nobody’s rights', () => {
  let g: GovernanceApp;
  before(async () => {
    g = await governanceApp({
      CONTENT_ADMIN_IDS: ADMIN,
      REWARDS_ADMIN_IDS: TREASURER,
      CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS: `${ADMIN},${APPROVER_1},${APPROVER_2}`,
    });
    await bindActor(g.t.db.database, 'real-admin', ADMIN, 'L3');
    await bindActor(g.t.db.database, 'real-approver-1', APPROVER_1, 'L3');
  });
  after(() => g.t.close());

  const read = (path: string, query: Record<string, string>) => g.client.humanRead<Json>(TEST_SECRET, path, query);
  const write = (path: string, body: Json & { actorId: string; verified: boolean }) => g.client.humanWrite<Json>(TEST_SECRET, path, body);

  test('the governance state, as a content admin by actorId: 400, naming actorId', async () => {
    const res = await read('/v1/admin/governance/state', { actorId: ADMIN, verified: 'true' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'VALIDATION_FAILED');
    assert.match(res.body.details[0].path, /actorId$/);
    assert.match(res.body.details[0].message, /linked-human id form/);
    // the person themself, signed as the identity records bind them, is served
    const real = await read('/v1/admin/governance/state', { actorId: 'real-admin', verified: 'true', linkedHumanId: ADMIN });
    assert.equal(real.status, 200, JSON.stringify(real.body));
  });

  test("the settlements and a person's dashboard, by actorId: 400", async () => {
    assert.equal((await read('/v1/rewards/settlements', { actorId: TREASURER, verified: 'true' })).status, 400);
    const dashboard = await read('/v1/rewards/dashboard', { actorId: TREASURER, verified: 'true', userId: TREASURER });
    assert.equal(dashboard.status, 400);
    assert.equal(dashboard.body.code, 'VALIDATION_FAILED');
  });

  test('a signed linkedHumanId the identity records do not bind to the actor: 403 LINKED_HUMAN_NOT_BOUND', async () => {
    const res = await read('/v1/rewards/settlements', { actorId: 'somebody', verified: 'true', linkedHumanId: TREASURER });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'LINKED_HUMAN_NOT_BOUND');
  });

  test('one approver cannot pass the two-person rule alone by signing as the second approver', async () => {
    const proposal = await g.client.humanWrite<Json>(TEST_SECRET, '/v1/admin/governance/proposals', {
      actorId: 'real-admin',
      linkedHumanId: ADMIN,
      verified: true,
      title: 'Tune',
      rationale: 'two people must agree',
      changes: { 'consensus.minAttestations': 7 },
    });
    assert.equal(proposal.status, 202, JSON.stringify(proposal.body));
    const filed = await write('/v1/admin/control-plane/requests', {
      actorId: 'real-admin',
      linkedHumanId: ADMIN,
      verified: true,
      action: 'governance.activate',
      target: proposal.body.id,
      payload: {},
      reason: 'two-person change',
    });
    assert.equal(filed.status, 202, JSON.stringify(filed.body));
    const id = filed.body.id as string;
    const first = await write(`/v1/admin/control-plane/requests/${id}/approve`, {
      actorId: 'real-approver-1',
      linkedHumanId: APPROVER_1,
      verified: true,
      ...proofFor(`control_plane_approve:${id}`),
    });
    assert.equal(first.status, 202, JSON.stringify(first.body));
    const forged = await write(`/v1/admin/control-plane/requests/${id}/approve`, {
      actorId: APPROVER_2,
      verified: true,
      ...proofFor(`control_plane_approve:${id}`),
    });
    assert.equal(forged.status, 400);
    const request = await read(`/v1/admin/control-plane/requests/${id}`, { actorId: 'real-admin', verified: 'true', linkedHumanId: ADMIN });
    assert.equal(request.body.status, 'PENDING');
    assert.equal(request.body.approvalCount, 1);
  });

  test('optional signed readers on public reads refuse the form too', async () => {
    const res = await read('/v1/feed', { actorId: APPROVER_2, verified: 'true' });
    assert.equal(res.status, 400);
  });
});

describe('verified=true is backed by what the service verified', () => {
  let g: GovernanceApp;
  before(async () => {
    // the admin here is allowlisted by actorId and bound to nobody: verified=true is only the front end's word
    g = await governanceApp({ CONTENT_ADMIN_IDS: 'h_admin,plain-admin' });
  });
  after(() => g.t.close());

  test('cancelling a control-plane request needs a verified human the identity records know', async () => {
    const proposalId = (await propose(g, { 'consensus.minAttestations': 6 })).id;
    const id = (await fileRequest(g, { action: 'governance.activate', target: proposalId, payload: {} })).body.id;
    const unbound = await g.client.humanWrite<Json>(TEST_SECRET, `/v1/admin/control-plane/requests/${id}/cancel`, {
      actorId: 'plain-admin',
      verified: true,
    });
    assert.equal(unbound.status, 403);
    assert.equal(unbound.body.code, 'VERIFIED_ACTOR_REQUIRED');
    const bound = await g.post<Json>('admin', `/v1/admin/control-plane/requests/${id}/cancel`, {});
    assert.equal(bound.status, 202, JSON.stringify(bound.body));
    assert.equal(bound.body.status, 'CANCELLED');
  });

  test('an approval is backed by the proof it carries: a second approval by the same person (same nullifier) is refused', async () => {
    const proposalId = (await propose(g, { 'consensus.minAttestations': 8 })).id;
    const id = (await fileRequest(g, { action: 'governance.activate', target: proposalId, payload: {} })).body.id;
    const nullifier = `0x${'ab'.repeat(16)}`;
    assert.equal((await approve(g, 'approver1', id, proofFor(`control_plane_approve:${id}`, { nullifier }))).status, 202);
    const samePerson = await approve(g, 'approver2', id, proofFor(`control_plane_approve:${id}`, { nullifier }));
    assert.equal(samePerson.status, 409);
    assert.equal(samePerson.body.code, 'NULLIFIER_REUSED');
  });
});
