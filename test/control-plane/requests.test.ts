import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { canonicalJson } from '../../sdk/index.js';
import { TEST_SECRET } from '../helpers/app.js';
import { approve, fileRequest, governanceApp, propose, proofFor, type GovernanceApp } from '../governance/support.js';
import type { Json } from '../helpers/json.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('control-plane requests: filing, listing and reading', () => {
  let g: GovernanceApp;
  let proposalId: string;
  before(async () => {
    g = await governanceApp();
    proposalId = (await propose(g, { 'consensus.minAttestations': 5 })).id;
  });
  after(() => g.t.close());

  test('a content admin files a PENDING request whose payload hash is SHA-256 of the canonical JSON', async () => {
    const payload = { changes: { 'consensus.minAttestations': 5 }, b: [1, 'two'], a: { z: 1, y: null } };
    const res = await fileRequest(g, { action: 'governance.activate', target: proposalId, payload, reason: 'raise the bar' });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.status, 'PENDING');
    assert.equal(res.body.payloadHash, sha256(canonicalJson(payload)));
    assert.deepEqual(res.body.payload, payload);
    assert.equal(res.body.requestedBy, 'h_admin');
    assert.equal(res.body.approvalsRequired, 2);
    assert.equal(res.body.approvalCount, 0);
    assert.deepEqual(res.body.approvals, []);
    const audit = await g.t.db.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('target', '=', res.body.id)
      .executeTakeFirstOrThrow();
    assert.equal(audit.scope, 'CONTROL_PLANE');
    assert.equal(audit.action, 'request.created');
  });

  test('the target must fit the action; only content admins file; unknown fields are refused', async () => {
    const unknownProposal = await fileRequest(g, { action: 'governance.activate', target: 'gp_nope', payload: {} });
    assert.equal(unknownProposal.status, 400);
    assert.equal(unknownProposal.body.details[0].path, '/target');
    const wrongTarget = await fileRequest(g, { action: 'governance.emergency.clear', target: proposalId, payload: {} });
    assert.equal(wrongTarget.status, 400);
    const unknownAction = await fileRequest(g, { action: 'governance.delete', target: 'emergency', payload: {} });
    assert.equal(unknownAction.status, 400);
    const extra = await fileRequest(g, {
      action: 'governance.emergency.clear',
      target: 'emergency',
      payload: {},
      status: 'EXECUTED',
    } as never);
    assert.equal(extra.status, 400);
    const approver = await fileRequest(g, { action: 'governance.emergency.clear', target: 'emergency', payload: {} }, 'approver1');
    assert.equal(approver.status, 403);
    assert.equal(approver.body.code, 'CONTENT_ADMIN_REQUIRED');
  });

  test('the list filters by status and action and pages newest first with a keyset cursor', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (await fileRequest(g, { action: 'governance.emergency.clear', target: 'emergency', payload: { emergencyId: `em_${i}` } })).body.id,
      );
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await g.get<Json>('admin', '/v1/admin/control-plane/requests', {
        action: 'governance.emergency.clear',
        status: 'PENDING',
        limit: '2',
        ...(cursor ? { cursor } : {}),
      });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.ok(page.body.items.every((r: Json) => r.action === 'governance.emergency.clear' && r.status === 'PENDING'));
      seen.push(...page.body.items.map((r: Json) => r.id));
      cursor = page.body.nextCursor;
      pages += 1;
    } while (cursor);
    assert.deepEqual(seen, [...ids].reverse(), 'newest first, each once');
    assert.equal(pages, 3);
    const activations = await g.get<Json>('admin', '/v1/admin/control-plane/requests', { action: 'governance.activate' });
    assert.ok(activations.body.items.length >= 1);
    assert.ok(activations.body.items.every((r: Json) => r.action === 'governance.activate'));
    const none = await g.get<Json>('admin', '/v1/admin/control-plane/requests', { status: 'CONSUMED' });
    assert.deepEqual(none.body.items, []);
    assert.equal(none.body.nextCursor, undefined);
  });

  test('a tampered cursor, or one from another filter, is 400 INVALID_CURSOR; a bad status is 400', async () => {
    const first = await g.get<Json>('admin', '/v1/admin/control-plane/requests', { limit: '1' });
    const cursor: string = first.body.nextCursor;
    assert.ok(cursor);
    const tampered = await g.get<Json>('admin', '/v1/admin/control-plane/requests', {
      limit: '1',
      cursor: cursor.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
    });
    assert.equal(tampered.body.code, 'INVALID_CURSOR');
    const otherFilter = await g.get<Json>('admin', '/v1/admin/control-plane/requests', { limit: '1', status: 'PENDING', cursor });
    assert.equal(otherFilter.body.code, 'INVALID_CURSOR');
    const badStatus = await g.get<Json>('admin', '/v1/admin/control-plane/requests', { status: 'DONE' });
    assert.equal(badStatus.status, 400);
  });

  test('read answers one request with its approvals; an unknown id is 404; a non-admin is 403', async () => {
    const filed = await fileRequest(g, { action: 'governance.emergency.clear', target: 'emergency', payload: { emergencyId: 'em_read' } });
    assert.equal((await approve(g, 'approver1', filed.body.id)).status, 202);
    const res = await g.get<Json>('admin', `/v1/admin/control-plane/requests/${filed.body.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.approvalCount, 1);
    assert.deepEqual(
      res.body.approvals.map((a: Json) => a.approver),
      ['h_approver1'],
    );
    assert.equal((await g.get<Json>('admin', '/v1/admin/control-plane/requests/cpr_missing')).status, 404);
    assert.equal((await g.get<Json>('approver1', `/v1/admin/control-plane/requests/${filed.body.id}`)).body.code, 'CONTENT_ADMIN_REQUIRED');
  });
});

describe('control-plane approvals', () => {
  let g: GovernanceApp;
  const clearRequest = async () =>
    (await fileRequest(g, { action: 'governance.emergency.clear', target: 'emergency', payload: { emergencyId: 'em_x' } })).body.id;
  before(async () => {
    g = await governanceApp();
  });
  after(() => g.t.close());

  test('two distinct allowlisted approvers with verified proofs execute a request (CONTROL_PLANE_APPROVAL_MIN=2)', async () => {
    const id = await clearRequest();
    const first = await approve(g, 'approver1', id);
    assert.equal(first.status, 202, JSON.stringify(first.body));
    assert.equal(first.body.status, 'PENDING');
    assert.equal(first.body.approvalCount, 1);
    const second = await approve(g, 'approver2', id);
    assert.equal(second.body.status, 'EXECUTED');
    assert.equal(second.body.approvalCount, 2);
    assert.ok(second.body.executedAt);
    const third = await approve(g, 'approver3', id);
    assert.equal(third.status, 409);
    assert.equal(third.body.code, 'CONTROL_PLANE_REQUEST_NOT_PENDING');
    const audit = await g.t.db.database.db.selectFrom('audit_events').select('action').where('target', '=', id).orderBy('seq').execute();
    assert.deepEqual(
      audit.map((a) => a.action),
      ['request.created', 'request.approved', 'request.approved', 'request.executed'],
    );
  });

  test('membership is the approver allowlist, not the content-admin list: exact case, linkedHumanId first, actorId as fallback', async () => {
    const id = await clearRequest();
    const admin2 = await approve(g, 'admin2', id);
    assert.equal(admin2.status, 403);
    assert.equal(admin2.body.code, 'CONTROL_PLANE_APPROVER_REQUIRED');
    const reader = await approve(g, 'reader', id);
    assert.equal(reader.body.code, 'CONTROL_PLANE_APPROVER_REQUIRED');
    const proof = proofFor(`control_plane_approve:${id}`);
    const wrongCase = await g.client.humanWrite<Json>(TEST_SECRET, `/v1/admin/control-plane/requests/${id}/approve`, {
      actorId: 'OPS-APPROVER',
      verified: true,
      ...proof,
    });
    assert.equal(wrongCase.body.code, 'CONTROL_PLANE_APPROVER_REQUIRED');
    const byActorId = await g.client.humanWrite<Json>(TEST_SECRET, `/v1/admin/control-plane/requests/${id}/approve`, {
      actorId: 'ops-approver',
      verified: true,
      ...proof,
    });
    assert.equal(byActorId.status, 202, JSON.stringify(byActorId.body));
    assert.deepEqual(
      byActorId.body.approvals.map((a: Json) => a.approver),
      ['ops-approver'],
    );
    // approver1's actorId is bound to h_approver1: the allowlisted linkedHumanId counts, not the actorId
    const borrowed = await g.client.humanWrite<Json>(TEST_SECRET, `/v1/admin/control-plane/requests/${id}/approve`, {
      actorId: 'reader-1',
      linkedHumanId: 'h_approver1',
      verified: true,
      ...proofFor(`control_plane_approve:${id}`),
    });
    assert.equal(borrowed.body.code, 'LINKED_HUMAN_NOT_BOUND');
  });

  test('an approver must sign verified=true', async () => {
    const id = await clearRequest();
    const res = await g.post<Json>('approver1', `/v1/admin/control-plane/requests/${id}/approve`, {
      ...proofFor(`control_plane_approve:${id}`),
      verified: false,
    });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'VERIFIED_ACTOR_REQUIRED');
  });

  test('each approval carries a verified proof bound to control_plane_approve:<requestId> whose nullifier is used once', async () => {
    const id = await clearRequest();
    const other = await clearRequest();
    const wrongAction = await approve(g, 'approver1', id, proofFor(`control_plane_approve:${other}`));
    assert.equal(wrongAction.status, 400);
    assert.equal(wrongAction.body.details[0].path, '/action');
    const forged = await approve(g, 'approver1', id, proofFor(`control_plane_approve:${id}`, { tamper: true }));
    assert.equal(forged.status, 403);
    assert.equal(forged.body.code, 'HUMAN_PROOF_INVALID');
    const missing = await g.post<Json>('approver1', `/v1/admin/control-plane/requests/${id}/approve`, {});
    assert.equal(missing.status, 400);
    const proof = proofFor(`control_plane_approve:${id}`);
    assert.equal((await approve(g, 'approver1', id, proof)).status, 202);
    // the same human (same nullifier) signing in as another approver
    const reused = await approve(g, 'approver2', id, proof);
    assert.equal(reused.status, 409);
    assert.equal(reused.body.code, 'NULLIFIER_REUSED');
    const again = await approve(g, 'approver1', id, proofFor(`control_plane_approve:${id}`, { provider: 'phone' }));
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'CONTROL_PLANE_ALREADY_APPROVED');
    const row = await g.get<Json>('admin', `/v1/admin/control-plane/requests/${id}`);
    assert.equal(row.body.approvalCount, 1);
    assert.equal(row.body.status, 'PENDING');
  });

  test('the requester cannot approve their own request (CONTROL_PLANE_ENFORCE_REQUESTER_CANNOT_APPROVE=1, the default)', async () => {
    const id = await clearRequest();
    const own = await approve(g, 'admin', id);
    assert.equal(own.status, 403);
    assert.equal(own.body.code, 'CONTROL_PLANE_REQUESTER_CANNOT_APPROVE');
    // nor through another identity key on the same actorId
    const viaActor = await g.client.humanWrite<Json>(TEST_SECRET, `/v1/admin/control-plane/requests/${id}/approve`, {
      actorId: 'gov-admin',
      verified: true,
      ...proofFor(`control_plane_approve:${id}`),
    });
    assert.equal(viaActor.body.code, 'CONTROL_PLANE_APPROVER_REQUIRED', 'gov-admin alone is not on the approver list');
  });

  test('an unknown request is 404', async () => {
    assert.equal((await approve(g, 'approver1', 'cpr_missing')).status, 404);
  });

  test('cancel: the initiator or a content admin with verified=true, before consumption; then no approvals', async () => {
    const id = await clearRequest();
    const byApprover = await g.post<Json>('approver1', `/v1/admin/control-plane/requests/${id}/cancel`, {});
    assert.equal(byApprover.status, 403);
    assert.equal(byApprover.body.code, 'CONTROL_PLANE_CANCEL_FORBIDDEN');
    const unverified = await g.post<Json>('admin', `/v1/admin/control-plane/requests/${id}/cancel`, { verified: false });
    assert.equal(unverified.status, 403);
    assert.equal(unverified.body.code, 'VERIFIED_ACTOR_REQUIRED');
    const byInitiator = await g.post<Json>('admin', `/v1/admin/control-plane/requests/${id}/cancel`, { reason: 'filed by mistake' });
    assert.equal(byInitiator.status, 202);
    assert.equal(byInitiator.body.status, 'CANCELLED');
    assert.equal(byInitiator.body.cancelReason, 'filed by mistake');
    assert.equal(
      (await g.post<Json>('admin', `/v1/admin/control-plane/requests/${id}/cancel`, {})).body.code,
      'CONTROL_PLANE_REQUEST_NOT_CANCELLABLE',
    );
    assert.equal((await approve(g, 'approver1', id)).body.code, 'CONTROL_PLANE_REQUEST_NOT_PENDING');

    const executed = await clearRequest();
    await approve(g, 'approver1', executed);
    await approve(g, 'approver2', executed);
    const byOtherAdmin = await g.post<Json>('admin2', `/v1/admin/control-plane/requests/${executed}/cancel`, {});
    assert.equal(byOtherAdmin.status, 202);
    assert.equal(byOtherAdmin.body.status, 'CANCELLED');
    assert.equal(byOtherAdmin.body.cancelledBy, 'h_admin2');
    assert.equal((await g.post<Json>('admin', '/v1/admin/control-plane/requests/cpr_missing/cancel', {})).status, 404);
  });
});

describe('control-plane approval settings', () => {
  test('CONTROL_PLANE_APPROVAL_MIN=3 needs three approvers; with CONTROL_PLANE_ENFORCE_REQUESTER_CANNOT_APPROVE=0 the requester may be one', async () => {
    const g = await governanceApp({ CONTROL_PLANE_APPROVAL_MIN: '3', CONTROL_PLANE_ENFORCE_REQUESTER_CANNOT_APPROVE: '0' });
    try {
      const filed = await fileRequest(g, { action: 'governance.emergency.clear', target: 'emergency', payload: {} });
      assert.equal(filed.body.approvalsRequired, 3);
      assert.equal((await approve(g, 'admin', filed.body.id)).body.status, 'PENDING');
      assert.equal((await approve(g, 'approver1', filed.body.id)).body.status, 'PENDING');
      const third = await approve(g, 'approver2', filed.body.id);
      assert.equal(third.body.status, 'EXECUTED');
      assert.equal(third.body.approvalCount, 3);
    } finally {
      await g.t.close();
    }
  });
});
