import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PARAMETER_DEFAULTS, PARAMETER_NAMES } from '../../src/governance/parameters/parameters.js';
import { TEST_SECRET } from '../helpers/app.js';
import { governanceApp, propose, proofFor, ratify, type GovernanceApp } from './support.js';
import type { Json } from '../helpers/json.js';

describe('governance state and proposals', () => {
  let g: GovernanceApp;
  before(async () => {
    g = await governanceApp();
  });
  after(() => g.t.close());

  test('state lists every registry parameter with value, default, range and no proposal yet, and no emergency', async () => {
    const res = await g.get<Json>('admin', '/v1/admin/governance/state');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const names = res.body.parameters.map((p: Json) => p.name);
    assert.deepEqual(names, PARAMETER_NAMES);
    const minAtt = res.body.parameters.find((p: Json) => p.name === 'consensus.minAttestations');
    assert.equal(minAtt.value, PARAMETER_DEFAULTS['consensus.minAttestations']);
    assert.equal(minAtt.default, PARAMETER_DEFAULTS['consensus.minAttestations']);
    assert.deepEqual(minAtt.range, { min: 1, max: 1000, integer: true });
    assert.equal(minAtt.updatedByProposalId, null);
    assert.ok(minAtt.description.length > 10);
    assert.equal(res.body.emergency.active, false);
    assert.equal(res.body.controlPlane.explicitEnabled, false);
  });

  test('the state answers 403 to a signed reader who is not a content admin, and 401 unsigned', async () => {
    assert.equal((await g.get<Json>('reader', '/v1/admin/governance/state')).body.code, 'CONTENT_ADMIN_REQUIRED');
    const unsigned = await g.client.get('/v1/admin/governance/state', { actorId: 'gov-admin', verified: 'true' });
    assert.equal(unsigned.status, 401);
  });

  test('a proposal naming an unknown parameter or an out-of-range value is 400 with details naming each', async () => {
    const res = await g.post<Json>('admin', '/v1/admin/governance/proposals', {
      title: 'Bad',
      rationale: 'x',
      changes: {
        'consensus.noSuchThing': 3,
        'consensus.minAttestations': 0,
        'consensus.contestedObjectionRatio': 0.5,
        'revision.acceptVotes': 2.5,
      },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'VALIDATION_FAILED');
    const byPath = Object.fromEntries(res.body.details.map((d: Json) => [d.path, d.code]));
    assert.deepEqual(byPath, {
      '/changes/consensus.noSuchThing': 'UNKNOWN_PARAMETER',
      '/changes/consensus.minAttestations': 'OUT_OF_RANGE',
      '/changes/revision.acceptVotes': 'OUT_OF_RANGE',
    });
    const empty = await g.post<Json>('admin', '/v1/admin/governance/proposals', { title: 'Empty', rationale: 'x', changes: {} });
    assert.equal(empty.status, 400);
    const text = await g.post<Json>('admin', '/v1/admin/governance/proposals', {
      title: 'Text',
      rationale: 'x',
      changes: { rewardWindowHours: '48' },
    });
    assert.equal(text.status, 400);
    assert.equal(text.body.details[0].path, '/changes/rewardWindowHours');
  });

  test('DRAFT -> RATIFIED -> ACTIVE: activation writes the values with the proposal id, and the state shows them', async () => {
    const draft = await propose(g, { 'consensus.minAttestations': 4, rewardWindowHours: 48 });
    assert.equal(draft.status, 'DRAFT');
    assert.equal(draft.createdBy, 'h_admin');
    const ratified = await ratify(g, draft.id);
    assert.equal(ratified.status, 202, JSON.stringify(ratified.body));
    assert.equal(ratified.body.status, 'RATIFIED');
    assert.equal(ratified.body.decidedBy, 'h_admin');
    const activated = await g.post<Json>('admin', `/v1/admin/governance/proposals/${draft.id}/activate`);
    assert.equal(activated.status, 202, JSON.stringify(activated.body));
    assert.equal(activated.body.proposal.status, 'ACTIVE');
    assert.deepEqual(activated.body.applied, [
      { name: 'consensus.minAttestations', from: 3, to: 4 },
      { name: 'rewardWindowHours', from: 72, to: 48 },
    ]);
    const rows = await g.t.db.database.db.selectFrom('governance_parameters').selectAll().orderBy('name').execute();
    assert.deepEqual(
      rows.map((r) => [r.name, r.value, r.default_value, r.updated_by_proposal_id]),
      [
        ['consensus.minAttestations', 4, 3, draft.id],
        ['rewardWindowHours', 48, 72, draft.id],
      ],
    );
    const state = await g.get<Json>('admin', '/v1/admin/governance/state');
    const p = state.body.parameters.find((x: Json) => x.name === 'rewardWindowHours');
    assert.equal(p.value, 48);
    assert.equal(p.default, 72);
    assert.equal(p.updatedByProposalId, draft.id);
    const audit = await g.t.db.database.db
      .selectFrom('audit_events')
      .select(['action', 'target'])
      .where('target', '=', draft.id)
      .orderBy('seq')
      .execute();
    assert.deepEqual(
      audit.map((a) => a.action),
      ['proposal.created', 'proposal.ratified', 'proposal.activated'],
    );
  });

  test('illegal transitions are 409 GOVERNANCE_TRANSITION_INVALID: activating a DRAFT, ratifying an ACTIVE', async () => {
    const draft = await propose(g, { 'revision.rejectVotes': 3 });
    const early = await g.post<Json>('admin', `/v1/admin/governance/proposals/${draft.id}/activate`);
    assert.equal(early.status, 409);
    assert.equal(early.body.code, 'GOVERNANCE_TRANSITION_INVALID');
    assert.equal(early.body.details[0].code, 'DRAFT');
    await ratify(g, draft.id);
    assert.equal((await g.post<Json>('admin', `/v1/admin/governance/proposals/${draft.id}/activate`)).status, 202);
    const again = await ratify(g, draft.id);
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'GOVERNANCE_TRANSITION_INVALID');
    const twice = await g.post<Json>('admin', `/v1/admin/governance/proposals/${draft.id}/activate`);
    assert.equal(twice.body.code, 'GOVERNANCE_TRANSITION_INVALID');
  });

  test('REJECT moves a DRAFT to REJECTED, which is final', async () => {
    const draft = await propose(g, { 'revision.rejectVotes': 5 });
    const rejected = await ratify(g, draft.id, { decision: 'REJECT' });
    assert.equal(rejected.status, 202);
    assert.equal(rejected.body.status, 'REJECTED');
    const activate = await g.post<Json>('admin', `/v1/admin/governance/proposals/${draft.id}/activate`);
    assert.equal(activate.body.code, 'GOVERNANCE_TRANSITION_INVALID');
  });

  test('ratification needs a verified human with a bound linkedHumanId', async () => {
    const draft = await propose(g, { 'consensus.minObjections': 3 });
    const proof = proofFor(`governance_ratify:${draft.id}`);
    const unverified = await g.post<Json>('admin', `/v1/admin/governance/proposals/${draft.id}/ratify`, { ...proof, verified: false });
    assert.equal(unverified.status, 403);
    assert.equal(unverified.body.code, 'VERIFIED_ACTOR_REQUIRED');
    // an admin allowlisted by actorId alone (no linkedHumanId) is still no verified human
    const noHuman = await g.client.humanWrite<Json>(TEST_SECRET, `/v1/admin/governance/proposals/${draft.id}/ratify`, {
      actorId: 'h_admin',
      verified: true,
      ...proof,
    });
    assert.equal(noHuman.status, 403);
    assert.equal(noHuman.body.code, 'VERIFIED_ACTOR_REQUIRED');
    const unbound = await g.client.humanWrite<Json>(TEST_SECRET, `/v1/admin/governance/proposals/${draft.id}/ratify`, {
      actorId: 'someone',
      linkedHumanId: 'h_admin',
      verified: true,
      ...proof,
    });
    assert.equal(unbound.body.code, 'LINKED_HUMAN_NOT_BOUND');
    const still = await g.get<Json>('admin', '/v1/admin/governance/state');
    assert.equal(still.body.openProposals.find((p: Json) => p.id === draft.id).status, 'DRAFT');
  });

  test('the ratify proof must be bound to this proposal, verify, and be used once', async () => {
    const draft = await propose(g, { 'consensus.minObjections': 4 });
    const other = await propose(g, { 'consensus.minObjections': 5 });
    const wrongAction = await g.post<Json>(
      'admin',
      `/v1/admin/governance/proposals/${draft.id}/ratify`,
      proofFor(`governance_ratify:${other.id}`),
    );
    assert.equal(wrongAction.status, 400);
    assert.equal(wrongAction.body.details[0].path, '/action');
    const graduate = await g.post<Json>('admin', `/v1/admin/governance/proposals/${draft.id}/ratify`, proofFor(`graduate:${draft.id}`));
    assert.equal(graduate.status, 400);
    const forged = await g.post<Json>(
      'admin',
      `/v1/admin/governance/proposals/${draft.id}/ratify`,
      proofFor(`governance_ratify:${draft.id}`, { tamper: true }),
    );
    assert.equal(forged.status, 403);
    assert.equal(forged.body.code, 'HUMAN_PROOF_INVALID');
    const proof = proofFor(`governance_ratify:${draft.id}`, { provider: 'passport' });
    const ok = await g.post<Json>('admin', `/v1/admin/governance/proposals/${draft.id}/ratify`, proof);
    assert.equal(ok.status, 202);
    const replay = await g.post<Json>('admin', `/v1/admin/governance/proposals/${draft.id}/ratify`, proof);
    assert.equal(replay.status, 409);
    assert.equal(replay.body.code, 'NULLIFIER_REUSED');
    const action = await g.t.db.database.db
      .selectFrom('verified_human_actions')
      .selectAll()
      .where('action', '=', `governance_ratify:${draft.id}`)
      .executeTakeFirstOrThrow();
    assert.equal(action.provider, 'passport');
    assert.equal(action.linked_human_id, 'h_admin');
    assert.ok(action.consumed_at, 'consumed by the ratification');
    assert.ok(!JSON.stringify(ok.body).includes(proof.proof), 'the proof is not echoed');
  });

  test('an unknown proposal is 404 on ratify and activate', async () => {
    assert.equal((await ratify(g, 'gp_missing')).status, 404);
    assert.equal((await g.post<Json>('admin', '/v1/admin/governance/proposals/gp_missing/activate')).status, 404);
  });

  test('activating a parameter supersedes the older DRAFT and RATIFIED proposals that change it, not newer or unrelated ones', async () => {
    const olderRatified = await propose(g, { 'consensus.graduationMinAttestations': 6 }, 'older ratified');
    await ratify(g, olderRatified.id);
    const olderDraft = await propose(g, { 'consensus.graduationMinAttestations': 7, 'revision.acceptVotes': 3 }, 'older draft');
    const unrelated = await propose(g, { 'consensus.verifiedAgentWeight': 3 }, 'unrelated');
    const winner = await propose(g, { 'consensus.graduationMinAttestations': 8 }, 'winner');
    const newer = await propose(g, { 'consensus.graduationMinAttestations': 9 }, 'newer');
    await ratify(g, winner.id);
    const activated = await g.post<Json>('admin', `/v1/admin/governance/proposals/${winner.id}/activate`);
    assert.deepEqual(activated.body.superseded, [olderRatified.id, olderDraft.id].sort());
    const state = await g.get<Json>('admin', '/v1/admin/governance/state');
    const statusOf = (id: string) => state.body.openProposals.find((p: Json) => p.id === id)?.status ?? 'closed';
    assert.equal(statusOf(olderRatified.id), 'closed');
    assert.equal(statusOf(olderDraft.id), 'closed');
    assert.equal(statusOf(unrelated.id), 'DRAFT');
    assert.equal(statusOf(newer.id), 'DRAFT');
    const superseded = await ratify(g, olderDraft.id);
    assert.equal(superseded.body.code, 'GOVERNANCE_TRANSITION_INVALID');
    assert.equal(superseded.body.details[0].code, 'SUPERSEDED');
    const row = await g.t.db.database.db
      .selectFrom('governance_proposals')
      .selectAll()
      .where('id', '=', olderRatified.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'SUPERSEDED');
    assert.equal(row.superseded_by, winner.id);
  });

  test('every governance route is in /openapi.json with its error answers', async () => {
    const doc = (await g.client.get<Json>('/openapi.json')).body;
    const expect: [string, string, string[]][] = [
      ['get', '/v1/admin/governance/state', ['200', '401', '403']],
      ['post', '/v1/admin/governance/proposals', ['202', '400', '401', '403']],
      ['post', '/v1/admin/governance/proposals/{id}/ratify', ['202', '400', '401', '403', '404', '409']],
      ['post', '/v1/admin/governance/proposals/{id}/activate', ['202', '401', '403', '404', '409']],
      ['post', '/v1/admin/governance/evaluate', ['200', '401', '403', '409']],
      ['post', '/v1/admin/governance/emergency/clear', ['202', '401', '403', '409']],
      ['post', '/v1/admin/control-plane/requests', ['202', '400', '401', '403']],
      ['get', '/v1/admin/control-plane/requests', ['200', '400', '401', '403']],
      ['get', '/v1/admin/control-plane/requests/{id}', ['200', '401', '403', '404']],
      ['post', '/v1/admin/control-plane/requests/{id}/approve', ['202', '400', '401', '403', '404', '409']],
      ['post', '/v1/admin/control-plane/requests/{id}/cancel', ['202', '401', '403', '404', '409']],
    ];
    for (const [method, path, statuses] of expect) {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `${method} ${path} is documented`);
      for (const s of statuses) assert.ok(op.responses[s], `${method} ${path} documents ${s}`);
      assert.deepEqual(op.security, [{ humanSignature: [] }]);
    }
    const codes = doc.components.schemas.ErrorCode.enum;
    for (const code of [
      'CONTROL_PLANE_EXECUTION_REQUIRED',
      'CONTROL_PLANE_REQUEST_NOT_FOUND',
      'CONTROL_PLANE_REQUEST_NOT_EXECUTED',
      'CONTROL_PLANE_REQUEST_MISMATCH',
      'GOVERNANCE_TRANSITION_INVALID',
    ]) {
      assert.ok(codes.includes(code), code);
    }
  });
});
