import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { approve, fileRequest, governanceApp, propose, ratify, seedActivity, type GovernanceApp } from '../governance/support.js';
import type { Json } from '../helpers/json.js';

const EXPLICIT = { FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED: '1' };

/** Files a request and has two approvers approve it: an EXECUTED request. */
async function executedRequest(
  g: GovernanceApp,
  request: { action: string; target: string; payload: Json; reason?: string },
): Promise<string> {
  const filed = await fileRequest(g, request);
  assert.equal(filed.status, 202, JSON.stringify(filed.body));
  assert.equal((await approve(g, 'approver1', filed.body.id)).status, 202);
  const second = await approve(g, 'approver2', filed.body.id);
  assert.equal(second.body.status, 'EXECUTED');
  return filed.body.id;
}

describe('explicit control plane: activation needs an executed control-plane request', () => {
  let g: GovernanceApp;
  let proposal: Json;
  let other: Json;
  const activate = (id: string, body: Json = {}) => g.post<Json>('admin', `/v1/admin/governance/proposals/${id}/activate`, body);
  const requestRow = (id: string) =>
    g.t.db.database.db.selectFrom('control_plane_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  before(async () => {
    g = await governanceApp(EXPLICIT);
    proposal = await propose(g, { 'consensus.minAttestations': 7, rewardWindowHours: 24 });
    other = await propose(g, { 'consensus.minAttestations': 8 });
    await ratify(g, proposal.id);
    await ratify(g, other.id);
  });
  after(() => g.t.close());

  test('the state says the explicit control plane is on', async () => {
    assert.equal((await g.get<Json>('admin', '/v1/admin/governance/state')).body.controlPlane.explicitEnabled, true);
  });

  test('missing id: 409 CONTROL_PLANE_EXECUTION_REQUIRED, naming the request to file', async () => {
    const res = await activate(proposal.id);
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'CONTROL_PLANE_EXECUTION_REQUIRED');
    assert.match(res.body.nextAction, /"action":"governance.activate"/);
    assert.match(res.body.nextAction, new RegExp(`"target":"${proposal.id}"`));
    assert.match(res.body.nextAction, /"payload":\{"changes":\{/);
  });

  test('unknown id: 409 CONTROL_PLANE_REQUEST_NOT_FOUND', async () => {
    const res = await activate(proposal.id, { controlPlaneRequestId: 'cpr_unknown' });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'CONTROL_PLANE_REQUEST_NOT_FOUND');
  });

  test('too few approvals: 409 CONTROL_PLANE_REQUEST_NOT_EXECUTED; a cancelled request the same', async () => {
    const filed = await fileRequest(g, { action: 'governance.activate', target: proposal.id, payload: { changes: proposal.changes } });
    await approve(g, 'approver1', filed.body.id);
    const res = await activate(proposal.id, { controlPlaneRequestId: filed.body.id });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'CONTROL_PLANE_REQUEST_NOT_EXECUTED');
    assert.equal(res.body.details[0].code, 'PENDING');
    const cancelled = await executedRequest(g, {
      action: 'governance.activate',
      target: proposal.id,
      payload: { changes: proposal.changes },
    });
    assert.equal((await g.post<Json>('admin', `/v1/admin/control-plane/requests/${cancelled}/cancel`)).status, 202);
    const again = await activate(proposal.id, { controlPlaneRequestId: cancelled });
    assert.equal(again.body.code, 'CONTROL_PLANE_REQUEST_NOT_EXECUTED');
    assert.equal(again.body.details[0].code, 'CANCELLED');
  });

  test('a request for another target, payload or action: 409 CONTROL_PLANE_REQUEST_MISMATCH naming what differs', async () => {
    const forOther = await executedRequest(g, { action: 'governance.activate', target: other.id, payload: { changes: other.changes } });
    const target = await activate(proposal.id, { controlPlaneRequestId: forOther });
    assert.equal(target.status, 409);
    assert.equal(target.body.code, 'CONTROL_PLANE_REQUEST_MISMATCH');
    assert.deepEqual(
      target.body.details.map((d: Json) => d.path),
      ['/target', '/payloadHash'],
    );
    const otherValues = await executedRequest(g, {
      action: 'governance.activate',
      target: proposal.id,
      payload: { changes: { 'consensus.minAttestations': 2 } },
    });
    const payload = await activate(proposal.id, { controlPlaneRequestId: otherValues });
    assert.equal(payload.body.code, 'CONTROL_PLANE_REQUEST_MISMATCH');
    assert.deepEqual(
      payload.body.details.map((d: Json) => d.path),
      ['/payloadHash'],
    );
    const clear = await executedRequest(g, {
      action: 'governance.emergency.clear',
      target: 'emergency',
      payload: { changes: proposal.changes },
    });
    const action = await activate(proposal.id, { controlPlaneRequestId: clear });
    assert.equal(action.body.code, 'CONTROL_PLANE_REQUEST_MISMATCH');
    assert.equal(action.body.details[0].path, '/action');
    for (const id of [forOther, otherValues, clear])
      assert.equal((await requestRow(id)).status, 'EXECUTED', 'a refused request is not consumed');
    assert.equal(
      (await g.get<Json>('admin', '/v1/admin/governance/state')).body.openProposals.find((p: Json) => p.id === proposal.id).status,
      'RATIFIED',
    );
  });

  test('the request is consumed in the transaction of the change: a failed activation leaves it EXECUTED; a successful one consumes it once', async () => {
    // key order does not matter: the payload hash is over canonical JSON
    const reordered = Object.fromEntries(Object.entries(proposal.changes).reverse());
    const id = await executedRequest(g, { action: 'governance.activate', target: proposal.id, payload: { changes: reordered } });
    // the schema is the owner's to change (the service's runtime role may not)
    const database = g.t.db.owner;
    await database.withSession((s) =>
      s.exec(`CREATE FUNCTION test_injected_failure() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$;
              CREATE TRIGGER test_injected_failure BEFORE INSERT OR UPDATE ON governance_parameters FOR EACH ROW EXECUTE FUNCTION test_injected_failure();`),
    );
    const failed = await activate(proposal.id, { controlPlaneRequestId: id });
    assert.equal(failed.status, 500);
    assert.equal((await requestRow(id)).status, 'EXECUTED', 'rolled back with the change');
    assert.equal(
      (
        await database.db
          .selectFrom('audit_events')
          .select('id')
          .where('target', '=', id)
          .where('action', '=', 'request.consumed')
          .execute()
      ).length,
      0,
    );
    await database.withSession((s) =>
      s.exec('DROP TRIGGER test_injected_failure ON governance_parameters; DROP FUNCTION test_injected_failure();'),
    );

    const ok = await activate(proposal.id, { controlPlaneRequestId: id });
    assert.equal(ok.status, 202, JSON.stringify(ok.body));
    assert.equal(ok.body.controlPlaneRequestId, id);
    assert.equal(ok.body.proposal.activationRequestId, id);
    assert.equal(ok.body.proposal.status, 'ACTIVE');
    const row = await requestRow(id);
    assert.equal(row.status, 'CONSUMED');
    assert.equal(row.consumed_by, `governance.activate:${proposal.id}`);
    const chain = await database.db
      .selectFrom('audit_events')
      .select(['seq', 'action', 'target'])
      .orderBy('seq', 'desc')
      .limit(2)
      .execute();
    assert.deepEqual(
      chain.reverse().map((e) => [e.action, e.target]),
      [
        ['request.consumed', id],
        ['proposal.activated', proposal.id],
      ],
    );
    assert.equal(BigInt(chain[1]!.seq) - BigInt(chain[0]!.seq), 1n, 'written together');
    // `other` was proposed after `proposal`: the activation did not supersede it, and it activates with its own request
    const forOther = await executedRequest(g, { action: 'governance.activate', target: other.id, payload: { changes: other.changes } });
    assert.equal((await activate(other.id, { controlPlaneRequestId: forOther })).status, 202);
  });
});

describe('explicit control plane: evaluate recommends, and emergency measures and clear need executed requests', () => {
  let g: GovernanceApp;
  before(async () => {
    g = await governanceApp(EXPLICIT);
    await seedActivity(g.t.db, { flagsLastHour: 15 });
  });
  after(() => g.t.close());

  test('the whole two-person emergency: advice, apply through an executed request, clear through another; each request used once', async () => {
    const advice = await g.post<Json>('admin', '/v1/admin/governance/evaluate');
    assert.equal(advice.status, 200);
    assert.deepEqual(advice.body.tripped, ['flagSurge']);
    assert.equal(advice.body.mutatingApplied, false);
    assert.equal(advice.body.applied, null);
    assert.equal(advice.body.emergency.active, false);
    assert.equal((await g.t.db.database.db.selectFrom('governance_emergencies').selectAll().execute()).length, 0, 'advisory only');
    assert.equal(advice.body.recommendedControlPlaneActions.length, 1);
    const recommended = advice.body.recommendedControlPlaneActions[0];
    assert.deepEqual(
      { action: recommended.action, target: recommended.target, payload: recommended.payload },
      {
        action: 'governance.emergency.apply',
        target: 'emergency',
        payload: { overlay: { 'consensus.minAttestations': 6, 'consensus.graduationMinAttestations': 10, 'revision.acceptVotes': 4 } },
      },
    );
    assert.match(recommended.reason, /flagSurge: 15 in the last hour/);

    // the recommendation is ready to file as it is
    const filed = await fileRequest(g, recommended);
    const pending = await g.post<Json>('admin', '/v1/admin/governance/evaluate', { controlPlaneRequestId: filed.body.id });
    assert.equal(pending.body.code, 'CONTROL_PLANE_REQUEST_NOT_EXECUTED');
    await approve(g, 'approver1', filed.body.id);
    await approve(g, 'approver3', filed.body.id);
    const applied = await g.post<Json>('admin', '/v1/admin/governance/evaluate', { controlPlaneRequestId: filed.body.id });
    assert.equal(applied.status, 200, JSON.stringify(applied.body));
    assert.equal(applied.body.mutatingApplied, true);
    assert.equal(applied.body.applied.controlPlaneRequestId, filed.body.id);
    assert.equal(applied.body.emergency.active, true);
    assert.equal(applied.body.emergency.activationRequestId, filed.body.id);
    const emergencyId: string = applied.body.emergency.id;
    const twice = await g.post<Json>('admin', '/v1/admin/governance/evaluate', { controlPlaneRequestId: filed.body.id });
    assert.equal(twice.body.code, 'GOVERNANCE_EMERGENCY_ACTIVE');
    const quiet = await g.post<Json>('admin', '/v1/admin/governance/evaluate');
    assert.deepEqual(quiet.body.recommendedControlPlaneActions, [], 'already in an emergency: nothing more to recommend');

    const missing = await g.post<Json>('admin', '/v1/admin/governance/emergency/clear');
    assert.equal(missing.status, 409);
    assert.equal(missing.body.code, 'CONTROL_PLANE_EXECUTION_REQUIRED');
    assert.match(missing.body.nextAction, new RegExp(`"emergencyId":"${emergencyId}"`));
    const unknown = await g.post<Json>('admin', '/v1/admin/governance/emergency/clear', { controlPlaneRequestId: 'cpr_unknown' });
    assert.equal(unknown.body.code, 'CONTROL_PLANE_REQUEST_NOT_FOUND');
    const wrongEmergency = await fileRequest(g, {
      action: 'governance.emergency.clear',
      target: 'emergency',
      payload: { emergencyId: 'em_old' },
    });
    const mismatch = await g.post<Json>('admin', '/v1/admin/governance/emergency/clear', { controlPlaneRequestId: wrongEmergency.body.id });
    assert.equal(mismatch.body.code, 'CONTROL_PLANE_REQUEST_MISMATCH');
    const usedApply = await g.post<Json>('admin', '/v1/admin/governance/emergency/clear', { controlPlaneRequestId: filed.body.id });
    assert.equal(usedApply.body.code, 'CONTROL_PLANE_REQUEST_MISMATCH');
    const clearRequest = await fileRequest(g, { action: 'governance.emergency.clear', target: 'emergency', payload: { emergencyId } });
    await approve(g, 'approver2', clearRequest.body.id);
    const notYet = await g.post<Json>('admin', '/v1/admin/governance/emergency/clear', { controlPlaneRequestId: clearRequest.body.id });
    assert.equal(notYet.body.code, 'CONTROL_PLANE_REQUEST_NOT_EXECUTED');
    await approve(g, 'approver3', clearRequest.body.id);
    const cleared = await g.post<Json>('admin', '/v1/admin/governance/emergency/clear', {
      controlPlaneRequestId: clearRequest.body.id,
      reason: 'two approvers agreed',
    });
    assert.equal(cleared.status, 202, JSON.stringify(cleared.body));
    assert.equal(cleared.body.controlPlaneRequestId, clearRequest.body.id);
    assert.equal(cleared.body.emergency.active, false);

    // still tripping, no emergency: the consumed apply request cannot start another one
    const reused = await g.post<Json>('admin', '/v1/admin/governance/evaluate', { controlPlaneRequestId: filed.body.id });
    assert.equal(reused.status, 409);
    assert.equal(reused.body.code, 'CONTROL_PLANE_REQUEST_CONSUMED');
    const again = await g.post<Json>('admin', '/v1/admin/governance/evaluate');
    assert.equal(again.body.recommendedControlPlaneActions[0].action, 'governance.emergency.apply');
  });
});

describe('explicit control plane: clear is recommended once the signals are quiet', () => {
  test('an active emergency with no tripped signal: evaluate recommends governance.emergency.clear for it; measures need a tripped signal', async () => {
    const off = await governanceApp();
    const on = await governanceApp(EXPLICIT, off.t.db);
    try {
      await seedActivity(off.t.db, { flagsLastHour: 10 });
      const started = await off.post<Json>('admin', '/v1/admin/governance/evaluate');
      assert.equal(started.body.mutatingApplied, true);
      // the last hour's flags become "earlier" when the surge is old news: move them back a day (flags are a
      // record the service never changes: as the owner)
      await sql`UPDATE flags SET created_at = now() - interval '30 hours'`.execute(off.t.db.owner.db);
      const advice = await on.post<Json>('admin', '/v1/admin/governance/evaluate');
      assert.deepEqual(advice.body.tripped, []);
      assert.deepEqual(
        advice.body.recommendedControlPlaneActions.map((r: Json) => [r.action, r.target, r.payload]),
        [['governance.emergency.clear', 'emergency', { emergencyId: started.body.applied.emergencyId }]],
      );
      const request = await fileRequest(on, { action: 'governance.emergency.apply', target: 'emergency', payload: { overlay: {} } });
      const notWarranted = await on.post<Json>('admin', '/v1/admin/governance/evaluate', { controlPlaneRequestId: request.body.id });
      assert.equal(notWarranted.status, 409);
      assert.equal(notWarranted.body.code, 'GOVERNANCE_EMERGENCY_NOT_WARRANTED');
    } finally {
      await on.t.close();
      await off.t.close();
    }
  });
});
