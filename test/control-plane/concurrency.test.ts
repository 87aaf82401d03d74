import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifyAuditChain } from '../../src/platform/audit/verify-chain.js';
import { approve, fileRequest, governanceApp, proofFor, seedActivity, type GovernanceApp } from '../governance/support.js';
import { needsPostgres } from '../helpers/needs.js';
import type { Json } from '../helpers/json.js';

// Skipped per test (a skipped describe's tests are counted nowhere); the setup is skipped with them.
const skip = needsPostgres('PGlite is one session and runs requests one at a time, so parallel requests prove nothing there');

/** Parallel requests over real HTTP against real PostgreSQL: the row locks and constraints decide, not luck. */
describe('control-plane approvals under concurrency', () => {
  let g: GovernanceApp;
  before(async () => {
    if (skip) return;
    g = await governanceApp({ DATABASE_POOL_MAX: '10' });
  });
  after(() => g?.t.close());

  const fileClear = async (emergencyId: string) =>
    (await fileRequest(g, { action: 'governance.emergency.clear', target: 'emergency', payload: { emergencyId } })).body.id;
  const events = (id: string, action: string) =>
    g.t.db.database.db
      .selectFrom('audit_events')
      .select('seq')
      .where('target', '=', id)
      .where('action', '=', action)
      .execute()
      .then((rows) => rows.length);

  test('two approvals at once (minimum 2): both count, exactly one executes the request', { skip }, async () => {
    for (let round = 0; round < 5; round++) {
      const id = await fileClear(`em_pair_${round}`);
      const [a, b] = await Promise.all([approve(g, 'approver1', id), approve(g, 'approver2', id)]);
      assert.deepEqual([a.status, b.status], [202, 202], JSON.stringify([a.body, b.body]));
      assert.deepEqual([a.body.status, b.body.status].sort(), ['EXECUTED', 'PENDING']);
      const row = await g.get<Json>('admin', `/v1/admin/control-plane/requests/${id}`);
      assert.equal(row.body.status, 'EXECUTED');
      assert.equal(row.body.approvalCount, 2);
      assert.equal(row.body.approvals.length, 2);
      assert.equal(await events(id, 'request.executed'), 1);
    }
  });

  test('three approvers at once for two places: two approvals, one 409, one execution', { skip }, async () => {
    const id = await fileClear('em_three');
    const results = await Promise.all((['approver1', 'approver2', 'approver3'] as const).map((who) => approve(g, who, id)));
    assert.deepEqual(results.map((r) => r.status).sort(), [202, 202, 409]);
    assert.equal(results.find((r) => r.status === 409)!.body.code, 'CONTROL_PLANE_REQUEST_NOT_PENDING');
    const approvals = await g.t.db.database.db
      .selectFrom('control_plane_approvals')
      .select('approver')
      .where('request_id', '=', id)
      .execute();
    assert.equal(approvals.length, 2);
    assert.equal(await events(id, 'request.executed'), 1);
    // the refused approval's proof was not spent
    const actions = await g.t.db.database.db
      .selectFrom('verified_human_actions')
      .select('id')
      .where('action', '=', `control_plane_approve:${id}`)
      .execute();
    assert.equal(actions.length, 2);
  });

  test('one approver approving twice at once (two proofs): one approval', { skip }, async () => {
    const id = await fileClear('em_twice');
    const results = await Promise.all([
      approve(g, 'approver1', id, proofFor(`control_plane_approve:${id}`, { provider: 'world_id' })),
      approve(g, 'approver1', id, proofFor(`control_plane_approve:${id}`, { provider: 'passport' })),
    ]);
    assert.deepEqual(results.map((r) => r.status).sort(), [202, 409]);
    assert.equal(results.find((r) => r.status === 409)!.body.code, 'CONTROL_PLANE_ALREADY_APPROVED');
    assert.equal((await g.get<Json>('admin', `/v1/admin/control-plane/requests/${id}`)).body.approvalCount, 1);
  });

  test('an executed clear request used by two clears at once clears once; the chain stays whole', { skip }, async () => {
    const explicit = await governanceApp({ FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED: '1' }, g.t.db);
    try {
      await seedActivity(g.t.db, { flagsLastHour: 10 });
      const started = await g.post<Json>('admin', '/v1/admin/governance/evaluate');
      assert.equal(started.body.mutatingApplied, true);
      const id = await fileClear(started.body.applied.emergencyId);
      await approve(g, 'approver1', id);
      await approve(g, 'approver2', id);
      const results = await Promise.all(
        [1, 2, 3].map(() => explicit.post<Json>('admin', '/v1/admin/governance/emergency/clear', { controlPlaneRequestId: id })),
      );
      assert.deepEqual(results.map((r) => r.status).sort(), [202, 409, 409]);
      assert.ok(results.filter((r) => r.status === 409).every((r) => r.body.code === 'GOVERNANCE_NO_EMERGENCY'));
      assert.equal(await events(id, 'request.consumed'), 1);
      assert.equal((await verifyAuditChain(g.t.db.database.db)).ok, true);
    } finally {
      await explicit.t.close();
    }
  });
});
