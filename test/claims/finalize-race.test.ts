import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { needsPostgres } from '../helpers/needs.js';
import { rewardsApp, type RewardsApp } from '../settlements/support.js';
import { bindWalletOf, payout, settlement } from './support.js';

describe('concurrent finalize', () => {
  let r: RewardsApp;
  before(async () => {
    r = await rewardsApp({
      CLAIMS_ENABLED: '1',
      // finalize reads nothing from the chain: the rail only has to be configured
      CHAIN_RPC_URL: 'http://127.0.0.1:9',
      CLAIM_DISTRIBUTOR_ADDRESS: `0x${'22'.repeat(20)}`,
    });
  });
  after(async () => r.t.close());

  test(
    'two finalize runs at once put every payout in exactly one batch',
    { skip: needsPostgres('real concurrent transactions') },
    async () => {
      const recipient = await bindWalletOf(r, 'alice', privateKeyToAccount(generatePrivateKey()));
      const st = await settlement(r.db, 50);
      for (let i = 1; i <= 50; i++) await payout(r.db, st, recipient, 'h_alice', BigInt(i));
      const runs = await Promise.all([1, 2, 3].map(() => r.post('treasurer', '/v1/admin/rewards/batches/finalize')));
      const statuses = runs.map((x) => x.status).sort();
      assert.deepEqual(statuses, [202, 409, 409], JSON.stringify(runs.map((x) => x.body)));
      const rows = await r.db.selectFrom('claim_batch_payouts').select(['payout_id', 'batch_id']).execute();
      assert.equal(rows.length, 50);
      assert.equal(new Set(rows.map((x) => x.batch_id)).size, 1);
    },
  );
});
