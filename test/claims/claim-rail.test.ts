import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { startClaimChain } from '../helpers/claim-chain.js';
import { rewardsApp, type RewardsApp } from '../settlements/support.js';
import { bindWalletOf, payout, settlement } from './support.js';
import type { Json } from '../helpers/json.js';

const ETH = 10n ** 18n;

describe('claim rail on a local chain', () => {
  let chain: Awaited<ReturnType<typeof startClaimChain>>;
  let r: RewardsApp;
  let distributor: Hex;
  let decoy: Hex;
  let alice: PrivateKeyAccount;
  let carol: PrivateKeyAccount;
  let batch: Json;

  before(async () => {
    chain = await startClaimChain();
    distributor = await chain.deploy();
    decoy = await chain.deploy();
    r = await rewardsApp({
      CLAIMS_ENABLED: '1',
      CHAIN_RPC_URL: chain.rpcUrl,
      CLAIM_DISTRIBUTOR_ADDRESS: distributor,
      CLAIM_MIN_CONFIRMATIONS: '3',
    });
    alice = await chain.account();
    carol = await chain.account();
    const aliceRecipient = await bindWalletOf(r, 'alice', alice);
    const carolRecipient = await bindWalletOf(r, 'carol', carol);
    const st = await settlement(r.db, 4);
    await payout(r.db, st, aliceRecipient, 'h_alice', 2n * ETH);
    await payout(r.db, st, aliceRecipient, 'h_alice', 1n * ETH);
    await payout(r.db, st, carolRecipient, 'h_carol', 5n * ETH);
    await payout(r.db, st, carolRecipient, 'h_carol', 7n * ETH, 'FROZEN');
  });
  after(async () => {
    await r?.t.close();
    await chain?.close();
  });

  const proofOf = async (who: 'alice' | 'carol') => (await r.get(who, `/v1/rewards/claims/${batch.id}/proof`, { userId: who })).body;
  const receipt = (who: 'alice' | 'carol', txHash: Hex) => r.post(who, '/v1/rewards/claims/receipts', { batchId: batch.id, txHash });

  test('finalize builds one leaf per wallet of the payable payouts, once', async () => {
    assert.equal((await r.post('alice', '/v1/admin/rewards/batches/finalize')).status, 403);
    const res = await r.post('treasurer', '/v1/admin/rewards/batches/finalize', { claimWindowDays: 30 });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    batch = res.body;
    assert.equal(batch.leafCount, 2);
    assert.equal(batch.payoutCount, 3, 'the FROZEN payout stays out');
    assert.equal(batch.total.base, (8n * ETH).toString());
    assert.equal(batch.distributorAddress, distributor.toLowerCase());
    const again = await r.post('treasurer', '/v1/admin/rewards/batches/finalize');
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'NOTHING_TO_DISTRIBUTE');
    const listed = await r.client.get<Json>('/v1/rewards/claims/batches');
    assert.deepEqual(
      listed.body.items.map((b: Json) => b.id),
      [batch.id],
    );
    const status = await r.client.get<Json>('/v1/rewards/claims/status');
    assert.equal(status.body.state, 'ACTIVE');
  });

  test("proofs: the caller's summed leaf verifies against the root; no leaf is 404", async () => {
    const p = await proofOf('alice');
    assert.equal(p.account, alice.address.toLowerCase());
    assert.equal(p.amount.base, (3n * ETH).toString());
    assert.ok(StandardMerkleTree.verify(batch.merkleRoot, ['address', 'uint256'], [p.account, p.amount.base], p.proof));
    const bob = await r.get('bob', `/v1/rewards/claims/${batch.id}/proof`, { userId: 'bob' });
    assert.equal(bob.status, 404);
    assert.equal((await r.get('bob', `/v1/rewards/claims/${batch.id}/proof`, { userId: 'alice' })).status, 403);
    assert.equal((await r.get('alice', '/v1/rewards/claims/cb_nope/proof', { userId: 'alice' })).status, 404);
  });

  test('a claim with the API proof is accepted once it has the confirmations; twice is 409', async () => {
    const deadline = BigInt(Math.floor(Date.parse(batch.claimDeadline) / 1000));
    await chain.registerBatch(distributor, batch.chainBatchId, batch.merkleRoot, deadline, 8n * ETH);
    const p = await proofOf('alice');
    const before = await chain.balance(alice.address);
    const tx = await chain.claim(alice, distributor, batch.chainBatchId, p.account, BigInt(p.amount.base), p.proof);
    assert.equal(await chain.status(tx), 'success');
    assert.ok((await chain.balance(alice.address)) > before, 'the distributor paid the claimant');

    const early = await receipt('alice', tx);
    assert.equal(early.status, 425, JSON.stringify(early.body));
    assert.equal(early.body.code, 'CLAIM_RECEIPT_UNCONFIRMED');
    assert.ok(early.body.retryAfterSeconds > 0);

    await chain.mine(2);
    const ok = await receipt('alice', tx);
    assert.equal(ok.status, 202, JSON.stringify(ok.body));
    assert.equal(ok.body.status, 'ACCEPTED');
    assert.equal(ok.body.amount.base, (3n * ETH).toString());
    assert.equal((await proofOf('alice')).claimed, true);

    const twice = await receipt('alice', tx);
    assert.equal(twice.status, 409);
    assert.equal(twice.body.code, 'CLAIM_ALREADY_RECORDED');
  });

  test("another user's claim transaction does not match the caller's leaf", async () => {
    const aliceTx = (await proofOf('alice')).claimTxHash as Hex;
    const res = await receipt('carol', aliceTx);
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'CLAIM_RECEIPT_MISMATCH');
  });

  test('a tampered proof reverts on chain, and the reverted transaction is a mismatch', async () => {
    const p = await proofOf('carol');
    const tampered = [...p.proof] as Hex[];
    tampered[0] = `0x${'11'.repeat(32)}`;
    const tx = await chain.claim(carol, distributor, batch.chainBatchId, p.account, BigInt(p.amount.base), tampered);
    assert.equal(await chain.status(tx), 'reverted');
    await chain.mine(3);
    const res = await receipt('carol', tx);
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'CLAIM_RECEIPT_MISMATCH');
    assert.match(res.body.message, /reverted/);
  });

  test('a claim on another contract with the same root is a mismatch', async () => {
    const deadline = BigInt(Math.floor(Date.parse(batch.claimDeadline) / 1000));
    await chain.registerBatch(decoy, batch.chainBatchId, batch.merkleRoot, deadline, 8n * ETH);
    const p = await proofOf('carol');
    const tx = await chain.claim(carol, decoy, batch.chainBatchId, p.account, BigInt(p.amount.base), p.proof);
    assert.equal(await chain.status(tx), 'success');
    await chain.mine(3);
    const res = await receipt('carol', tx);
    assert.equal(res.status, 409);
    assert.match(res.body.message, /distributor/);
  });

  test('batch freeze and unfreeze need finalized on-chain evidence that really changes the batch', async () => {
    const freeze = (body: Json) => r.post('treasurer', `/v1/admin/rewards/batches/${batch.id}/freeze`, { reason: 'fraud report', ...body });
    const unfreeze = (body: Json) => r.post('treasurer', `/v1/admin/rewards/batches/${batch.id}/unfreeze`, { reason: 'cleared', ...body });

    const none = await freeze({});
    assert.equal(none.status, 409);
    assert.equal(none.body.code, 'BATCH_CHAIN_EVIDENCE_REQUIRED');
    // a real distributor transaction that does not freeze the batch
    const aliceTx = (await proofOf('alice')).claimTxHash as Hex;
    const notAFreeze = await freeze({ onChainFreezeTxHash: aliceTx });
    assert.equal(notAFreeze.status, 409);
    assert.equal(notAFreeze.body.code, 'BATCH_CHAIN_EVIDENCE_INVALID');
    // a freeze of the same batch id on another contract
    const decoyFreeze = await chain.freeze(decoy, batch.chainBatchId);
    await chain.mine(3);
    assert.equal((await freeze({ onChainFreezeTxHash: decoyFreeze })).body.code, 'BATCH_CHAIN_EVIDENCE_INVALID');

    const freezeTx = await chain.freeze(distributor, batch.chainBatchId);
    const unfinalized = await freeze({ onChainFreezeTxHash: freezeTx });
    assert.equal(unfinalized.status, 409);
    assert.match(unfinalized.body.message, /confirmations/);
    await chain.mine(2);
    const frozen = await freeze({ onChainFreezeTxHash: freezeTx });
    assert.equal(frozen.status, 202, JSON.stringify(frozen.body));
    assert.equal(frozen.body.status, 'FROZEN');
    assert.equal(frozen.body.onChainFreezeTxHash, freezeTx);

    // claims revert on chain while frozen: a reverted transaction is a mismatch
    const p = await proofOf('carol');
    const blocked = await chain.claim(carol, distributor, batch.chainBatchId, p.account, BigInt(p.amount.base), p.proof);
    assert.equal(await chain.status(blocked), 'reverted');
    await chain.mine(3);
    assert.equal((await receipt('carol', blocked)).body.code, 'CLAIM_RECEIPT_MISMATCH');

    assert.equal((await unfreeze({})).body.code, 'BATCH_CHAIN_EVIDENCE_REQUIRED');
    assert.equal((await unfreeze({ onChainUnfreezeTxHash: freezeTx })).body.code, 'BATCH_CHAIN_EVIDENCE_INVALID');
    const unfreezeTx = await chain.unfreeze(distributor, batch.chainBatchId);
    await chain.mine(3);
    const thawed = await unfreeze({ onChainUnfreezeTxHash: unfreezeTx });
    assert.equal(thawed.status, 202, JSON.stringify(thawed.body));
    assert.equal(thawed.body.status, 'ACTIVE');

    // after the unfreeze, carol's claim goes through
    const tx = await chain.claim(carol, distributor, batch.chainBatchId, p.account, BigInt(p.amount.base), p.proof);
    await chain.mine(3);
    assert.equal((await receipt('carol', tx)).status, 202);
  });

  test('a receipt for a transaction the chain does not know is a mismatch', async () => {
    const unknown = privateKeyToAccount(generatePrivateKey()).address.padEnd(66, '0') as Hex;
    const res = await receipt('alice', unknown);
    assert.equal(res.status, 409);
  });

  test("only the distributor's owner (OpenZeppelin Ownable) registers, freezes and sweeps", async () => {
    assert.equal((await chain.ownerOf(distributor)).toLowerCase(), chain.owner.address.toLowerCase());
    const root = `0x${'ab'.repeat(32)}` as Hex;
    const batchId = `0x${'cd'.repeat(32)}` as Hex;
    for (const [fn, args] of [
      ['registerBatch', [batchId, root, 4_000_000_000n]],
      ['freeze', [batch.chainBatchId]],
      ['sweep', [batch.chainBatchId, alice.address]],
      ['transferOwnership', [alice.address]],
    ] as const) {
      const tx = await chain.sendAs(alice, distributor, fn, [...args]);
      assert.equal(await chain.status(tx), 'reverted', `${fn} by a claimant`);
    }
    assert.equal((await chain.ownerOf(distributor)).toLowerCase(), chain.owner.address.toLowerCase());
  });

  test('after the claim deadline the owner sweeps what was not claimed back to the pool', async () => {
    // on the decoy registration carol claimed 5 of 8: 3 remain
    const pool = (await chain.account()).address;
    const early = await chain.sweep(decoy, batch.chainBatchId, pool);
    assert.equal(await chain.status(early), 'reverted', 'no sweep inside the claim window');
    const before = await chain.balance(pool);
    await chain.increaseTime(31 * 86_400);
    const swept = await chain.sweep(decoy, batch.chainBatchId, pool);
    assert.equal(await chain.status(swept), 'success');
    assert.equal((await chain.balance(pool)) - before, 3n * ETH);
    const p = await proofOf('alice');
    const late = await chain.claim(alice, decoy, batch.chainBatchId, p.account, BigInt(p.amount.base), p.proof);
    assert.equal(await chain.status(late), 'reverted', 'no claim after the deadline');
  });
});
