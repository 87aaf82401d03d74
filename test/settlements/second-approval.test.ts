import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createServices } from '../../src/composition.js';
import { bindWalletOf, payout, settlement } from '../claims/support.js';
import { proofFor } from '../governance/support.js';
import type { Json } from '../helpers/json.js';
import { closedStory, rewardRowCounts, rewardsApp, workedExample, type Person, type RewardsApp } from './support.js';

const RUN = '/v1/rewards/settlements/run';
const PREVIEW = '/v1/rewards/settlements/preview';
const REQUESTS = '/v1/admin/control-plane/requests';

/** Two people for money: a pool above SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS needs a second rewards admin. */
describe('settlement runs above the second-approval threshold', () => {
  let r: RewardsApp;
  before(async () => {
    // treasurer and alice are rewards admins; carol is a governance approver, not a rewards admin
    r = await rewardsApp({
      REWARDS_ADMIN_IDS: 'h_treasurer,h_alice',
      CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS: 'h_carol',
      SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS: '100',
    });
  });
  after(() => r.t.close());

  const approve = (who: Person, id: string) => r.post<Json>(who, `${REQUESTS}/${id}/approve`, proofFor(`control_plane_approve:${id}`));
  const auditOf = (target: string) =>
    r.db.selectFrom('audit_events').select(['scope', 'action', 'details']).where('target', '=', target).orderBy('seq').execute();

  test('at or below the threshold one rewards admin runs alone', async () => {
    await workedExample(r);
    const preview = await r.get('treasurer', PREVIEW, { totalPoolOrbs: '100' });
    assert.equal(preview.status, 200, JSON.stringify(preview.body));
    assert.equal(preview.body.secondApproval.required, false);
    assert.equal(preview.body.secondApproval.aboveOrbs, '100');
    const run = await r.post('treasurer', RUN, { totalPoolOrbs: 100 });
    assert.equal(run.status, 202, JSON.stringify(run.body));
  });

  test('above it: 409 without an approved request, no self-approval, a second admin approves, the run pays exactly the approved inputs', async () => {
    await workedExample(r);
    const preview = await r.get('treasurer', PREVIEW, { totalPoolOrbs: '500' });
    assert.equal(preview.status, 200);
    assert.equal(preview.body.secondApproval.required, true);
    const wanted = preview.body.secondApproval.request;
    assert.deepEqual(wanted, {
      action: 'settlement.run',
      target: 'settlement',
      payload: { totalPoolOrbs: '500', previewDigest: preview.body.previewDigest },
    });
    // the preview says what is payable now and what waits, summing to what the run pays
    const states = Object.values(preview.body.byStatus as Record<string, { base: string }>).reduce((sum, a) => sum + BigInt(a.base), 0n);
    assert.equal(states.toString(), preview.body.paid.base);

    const settledBefore = (await rewardRowCounts(r.db)).settlements;
    const alone = await r.post('treasurer', RUN, { totalPoolOrbs: 500 });
    assert.equal(alone.status, 409, JSON.stringify(alone.body));
    assert.equal(alone.body.code, 'SECOND_APPROVAL_REQUIRED');
    assert.match(alone.body.nextAction, new RegExp(preview.body.previewDigest));
    assert.equal((await rewardRowCounts(r.db)).settlements, settledBefore, 'nothing is written');

    // only a rewards admin files a money request, for the target it names
    const byReader = await r.post('carol', REQUESTS, { ...wanted, reason: 'weekly pool' });
    assert.equal(byReader.status, 403);
    assert.equal(byReader.body.code, 'REWARDS_ADMIN_REQUIRED');
    const wrongTarget = await r.post('treasurer', REQUESTS, { ...wanted, target: 'emergency', reason: 'weekly pool' });
    assert.equal(wrongTarget.status, 400);
    const filed = await r.post('treasurer', REQUESTS, { ...wanted, reason: 'weekly pool' });
    assert.equal(filed.status, 202, JSON.stringify(filed.body));
    assert.equal(filed.body.status, 'PENDING');
    assert.equal(filed.body.approvalsRequired, 1);
    const id = filed.body.id as string;

    const early = await r.post('treasurer', RUN, { totalPoolOrbs: 500, controlPlaneRequestId: id });
    assert.equal(early.status, 409);
    assert.equal(early.body.code, 'CONTROL_PLANE_REQUEST_NOT_EXECUTED');

    const self = await approve('treasurer', id);
    assert.equal(self.status, 403);
    assert.equal(self.body.code, 'CONTROL_PLANE_REQUESTER_CANNOT_APPROVE');
    assert.match(self.body.message, /you cannot approve it/);
    // a governance approver who is no rewards admin does not approve money
    const governanceApprover = await approve('carol', id);
    assert.equal(governanceApprover.status, 403);
    assert.equal(governanceApprover.body.code, 'REWARDS_ADMIN_REQUIRED');
    // the second admin reads it and approves with a proof bound to it
    assert.equal((await r.get('alice', `${REQUESTS}/${id}`)).body.payload.totalPoolOrbs, '500');
    const second = await approve('alice', id);
    assert.equal(second.status, 202, JSON.stringify(second.body));
    assert.equal(second.body.status, 'EXECUTED');

    // a changed pool needs a new request
    const otherPool = await r.post('treasurer', RUN, { totalPoolOrbs: 600, controlPlaneRequestId: id });
    assert.equal(otherPool.status, 409);
    assert.equal(otherPool.body.code, 'CONTROL_PLANE_REQUEST_MISMATCH');

    const run = await r.post('alice', RUN, { totalPoolOrbs: '500', controlPlaneRequestId: id });
    assert.equal(run.status, 202, JSON.stringify(run.body));
    assert.equal(run.body.pool.display, '500');
    assert.equal(run.body.storyCount, preview.body.storyCount);
    assert.equal(run.body.paid.base, preview.body.paid.base);

    const trail = await auditOf(id);
    assert.deepEqual(
      trail.map((e) => `${e.scope} ${e.action}`),
      [
        'CONTROL_PLANE request.created',
        'CONTROL_PLANE request.approved',
        'CONTROL_PLANE request.executed',
        'CONTROL_PLANE request.consumed',
      ],
    );
    const settled = await auditOf(run.body.id);
    assert.equal(settled.length, 1);
    assert.equal(settled[0]!.action, 'settlement.run');
    assert.equal((settled[0]!.details as Json).controlPlaneRequestId, id);

    // the request authorized one run only
    await closedStory(r);
    const again = await r.post('treasurer', RUN, { totalPoolOrbs: '500', controlPlaneRequestId: id });
    assert.equal(again.status, 409);
    assert.match(again.body.code, /^CONTROL_PLANE_REQUEST_(MISMATCH|CONSUMED)$/);
  });

  test('a money request waits for the other rewards admins, not for its filer nor for governance approvers', async () => {
    await workedExample(r);
    const preview = await r.get('treasurer', PREVIEW, { totalPoolOrbs: '700' });
    const filed = await r.post('treasurer', REQUESTS, { ...preview.body.secondApproval.request, reason: 'monthly pool' });
    assert.equal(filed.status, 202);
    const { controlPlane } = createServices(r.t.app.ctx);
    const as = (actorId: string, linkedHumanId: string) => ({ kind: 'human', actorId, linkedHumanId, verified: true, tier: 'L3' }) as never;
    assert.ok((await controlPlane.waitingFor(as('alice', 'h_alice'), 'money')).includes(filed.body.id));
    assert.ok(!(await controlPlane.waitingFor(as('treasurer', 'h_treasurer'), 'money')).includes(filed.body.id));
    assert.ok(!(await controlPlane.waitingFor(as('carol', 'h_carol'))).includes(filed.body.id));
    assert.deepEqual(await controlPlane.waitingFor(as('alice', 'h_alice'), 'governance'), []);
    // the console's control plane lists governance changes only; the rewards pages list money
    assert.ok(!(await controlPlane.list({}, 'governance')).items.some((item) => item.id === filed.body.id));
    assert.ok((await controlPlane.list({}, 'money')).items.some((item) => item.id === filed.body.id));
  });
});

describe('claim batch finalize above the second-approval threshold', () => {
  let r: RewardsApp;
  const FINALIZE = '/v1/admin/rewards/batches/finalize';
  before(async () => {
    r = await rewardsApp({
      REWARDS_ADMIN_IDS: 'h_treasurer,h_alice',
      SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS: '1',
      CLAIMS_ENABLED: '1',
      // finalize reads nothing from the chain: the rail only has to be configured
      CHAIN_RPC_URL: 'http://127.0.0.1:9',
      CLAIM_DISTRIBUTOR_ADDRESS: `0x${'22'.repeat(20)}`,
    });
  });
  after(() => r.t.close());

  test('a batch above the threshold needs another rewards admin, for exactly this batch and window', async () => {
    const recipient = await bindWalletOf(r, 'carol', privateKeyToAccount(generatePrivateKey()));
    const st = await settlement(r.db, 2);
    await payout(r.db, st, recipient, 'h_carol', 2n * 10n ** 18n);
    await payout(r.db, st, recipient, 'h_carol', 10n ** 18n);

    const alone = await r.post('treasurer', FINALIZE, { claimWindowDays: 30 });
    assert.equal(alone.status, 409, JSON.stringify(alone.body));
    assert.equal(alone.body.code, 'SECOND_APPROVAL_REQUIRED');
    const wanted = JSON.parse(/with (\{.*\}) and a reason/.exec(alone.body.nextAction)![1]!) as Json;
    assert.equal(wanted.action, 'batch.finalize');
    assert.deepEqual(Object.keys(wanted.payload).sort(), ['claimWindowDays', 'previewDigest', 'totalOrbs']);
    assert.equal(wanted.payload.totalOrbs, '3');
    assert.equal(await r.db.selectFrom('claim_batches').select('id').executeTakeFirst(), undefined, 'no batch yet');

    const filed = await r.post('treasurer', '/v1/admin/control-plane/requests', { ...wanted, reason: 'monthly claims' });
    assert.equal(filed.status, 202, JSON.stringify(filed.body));
    const id = filed.body.id as string;
    const self = await r.post('treasurer', `/v1/admin/control-plane/requests/${id}/approve`, proofFor(`control_plane_approve:${id}`));
    assert.equal(self.body.code, 'CONTROL_PLANE_REQUESTER_CANNOT_APPROVE');
    const second = await r.post('alice', `/v1/admin/control-plane/requests/${id}/approve`, proofFor(`control_plane_approve:${id}`));
    assert.equal(second.body.status, 'EXECUTED', JSON.stringify(second.body));

    const otherWindow = await r.post('treasurer', FINALIZE, { claimWindowDays: 60, controlPlaneRequestId: id });
    assert.equal(otherWindow.body.code, 'CONTROL_PLANE_REQUEST_MISMATCH');
    const batch = await r.post('treasurer', FINALIZE, { claimWindowDays: 30, controlPlaneRequestId: id });
    assert.equal(batch.status, 202, JSON.stringify(batch.body));
    assert.equal(batch.body.total.display, '3');
    const audit = await r.db.selectFrom('audit_events').select(['action', 'details']).where('target', '=', batch.body.id).execute();
    assert.equal((audit[0]!.details as Json).controlPlaneRequestId, id);
  });
});

/** Cancelling a money request: its filer alone, and only while it waits for the second rewards admin. */
describe('cancelling a money request', () => {
  let r: RewardsApp;
  before(async () => {
    // treasurer and alice are rewards admins; carol is a content admin and a governance approver
    r = await rewardsApp({
      REWARDS_ADMIN_IDS: 'h_treasurer,h_alice',
      CONTENT_ADMIN_IDS: 'h_carol',
      CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS: 'h_carol',
      SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS: '100',
    });
  });
  after(() => r.t.close());

  const file = async (action: 'settlement.run' | 'batch.finalize') => {
    const payload =
      action === 'settlement.run'
        ? { totalPoolOrbs: '500', previewDigest: 'a'.repeat(64) }
        : { totalOrbs: '500', claimWindowDays: '30', previewDigest: 'b'.repeat(64) };
    const target = action === 'settlement.run' ? 'settlement' : 'batch';
    const filed = await r.post('treasurer', REQUESTS, { action, target, payload, reason: 'monthly' });
    assert.equal(filed.status, 202, JSON.stringify(filed.body));
    return filed.body.id as string;
  };
  const cancel = (who: Person, id: string, body: Json = {}) => r.post<Json>(who, `${REQUESTS}/${id}/cancel`, body);

  test('only the filer cancels a pending one: not another rewards admin, not a content admin, not unverified; audited', async () => {
    for (const action of ['settlement.run', 'batch.finalize'] as const) {
      const id = await file(action);
      const byOtherAdmin = await cancel('alice', id);
      assert.equal(byOtherAdmin.status, 403);
      assert.equal(byOtherAdmin.body.code, 'CONTROL_PLANE_CANCEL_FORBIDDEN');
      const byContentAdmin = await cancel('carol', id);
      assert.equal(byContentAdmin.status, 403);
      assert.equal(byContentAdmin.body.code, 'CONTROL_PLANE_CANCEL_FORBIDDEN');
      const unverified = await cancel('treasurer', id, { verified: false });
      assert.equal(unverified.status, 403);
      assert.equal(unverified.body.code, 'VERIFIED_ACTOR_REQUIRED');

      const mine = await cancel('treasurer', id, { reason: 'wrong pool' });
      assert.equal(mine.status, 202, JSON.stringify(mine.body));
      assert.equal(mine.body.status, 'CANCELLED');
      assert.equal(mine.body.cancelledBy, 'h_treasurer');
      assert.equal(mine.body.cancelReason, 'wrong pool');
      const audit = await r.db.selectFrom('audit_events').select(['action', 'details']).where('target', '=', id).orderBy('seq').execute();
      assert.deepEqual(
        audit.map((a) => a.action),
        ['request.created', 'request.cancelled'],
      );
      assert.deepEqual(audit[1]!.details, { from: 'PENDING', reason: 'wrong pool' });

      // a cancelled request takes no approval and no second cancel
      const approve = await r.post('alice', `${REQUESTS}/${id}/approve`, proofFor(`control_plane_approve:${id}`));
      assert.equal(approve.body.code, 'CONTROL_PLANE_REQUEST_NOT_PENDING');
      const again = await cancel('treasurer', id);
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'CONTROL_PLANE_REQUEST_NOT_CANCELLABLE');
    }
  });

  test('once a second rewards admin approved it, nobody cancels it alone', async () => {
    const id = await file('batch.finalize');
    const approved = await r.post('alice', `${REQUESTS}/${id}/approve`, proofFor(`control_plane_approve:${id}`));
    assert.equal(approved.body.status, 'EXECUTED', JSON.stringify(approved.body));
    const byFiler = await cancel('treasurer', id);
    assert.equal(byFiler.status, 409);
    assert.equal(byFiler.body.code, 'CONTROL_PLANE_REQUEST_NOT_CANCELLABLE');
    assert.equal((await cancel('alice', id)).body.code, 'CONTROL_PLANE_CANCEL_FORBIDDEN');
    const row = await r.db.selectFrom('control_plane_requests').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'EXECUTED');
  });

  test('an unknown request is 404', async () => {
    assert.equal((await cancel('treasurer', 'cpr_missing')).status, 404);
  });
});
