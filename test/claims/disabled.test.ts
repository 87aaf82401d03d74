import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { rewardsApp, type RewardsApp } from '../settlements/support.js';

const HASH = `0x${'ab'.repeat(32)}`;

describe('claim rail switched off (the default)', () => {
  let r: RewardsApp;
  before(async () => (r = await rewardsApp()));
  after(async () => r.t.close());

  test('status says disabled and the batch list is empty', async () => {
    const status = await r.client.get<Record<string, unknown>>('/v1/rewards/claims/status');
    assert.equal(status.status, 200);
    assert.equal(status.body.enabled, false);
    assert.equal(status.body.state, 'DISABLED');
    const batches = await r.client.get<{ items: unknown[] }>('/v1/rewards/claims/batches');
    assert.equal(batches.status, 200);
    assert.deepEqual(batches.body.items, []);
  });

  test('proofs and receipts answer 404 claims disabled', async () => {
    const proof = await r.get('alice', '/v1/rewards/claims/cb_any/proof', { userId: 'alice' });
    assert.equal(proof.status, 404);
    assert.equal(proof.body.code, 'CLAIMS_DISABLED');
    const receipt = await r.post('alice', '/v1/rewards/claims/receipts', { batchId: 'cb_any', txHash: HASH });
    assert.equal(receipt.status, 404);
    assert.equal(receipt.body.code, 'CLAIMS_DISABLED');
  });

  test('finalize answers 409 until the rail is configured, and only to a rewards admin', async () => {
    const res = await r.post('treasurer', '/v1/admin/rewards/batches/finalize');
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'CLAIM_RAIL_NOT_CONFIGURED');
    assert.equal((await r.post('alice', '/v1/admin/rewards/batches/finalize')).status, 403);
  });

  test('the batch freeze body allows no extra property, needs a reason and a well-formed hash', async () => {
    const path = '/v1/admin/rewards/batches/cb_any/freeze';
    assert.equal((await r.post('treasurer', path, { reason: 'x', extra: 1 })).status, 400);
    assert.equal((await r.post('treasurer', path, {})).status, 400);
    assert.equal((await r.post('treasurer', path, { reason: 'x', onChainFreezeTxHash: '0x1234' })).status, 400);
    assert.equal((await r.post('treasurer', path, { reason: 'x', onChainUnfreezeTxHash: HASH })).status, 400);
    const unknown = await r.post('treasurer', path, { reason: 'x', onChainFreezeTxHash: HASH });
    assert.equal(unknown.status, 404);
  });

  test('the seven claim rail routes are in /openapi.json', async () => {
    const doc = await r.client.get<{ paths: Record<string, Record<string, unknown>> }>('/openapi.json');
    const routes = [
      ['get', '/v1/rewards/claims/status'],
      ['get', '/v1/rewards/claims/batches'],
      ['get', '/v1/rewards/claims/{batchId}/proof'],
      ['post', '/v1/rewards/claims/receipts'],
      ['post', '/v1/admin/rewards/batches/finalize'],
      ['post', '/v1/admin/rewards/batches/{batchId}/freeze'],
      ['post', '/v1/admin/rewards/batches/{batchId}/unfreeze'],
    ] as const;
    for (const [method, path] of routes) assert.ok(doc.body.paths[path]?.[method], `${method} ${path}`);
  });
});
