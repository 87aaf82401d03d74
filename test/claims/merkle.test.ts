import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import fc from 'fast-check';
import { buildDistribution, type PayableShare } from '../../src/rewards/claims/merkle.js';
import { fuzzRuns } from '../helpers/fuzz.js';

const wallet = fc.integer({ min: 1, max: 40 }).map((n) => `0x${n.toString(16).padStart(40, '0').toUpperCase().replace('0X', '')}`);
const share = fc.record({
  wallet,
  amountBase: fc.bigInt({ min: 1n, max: 2n ** 200n }),
  recipientId: fc.constantFrom('rcp_a', 'rcp_b', 'rcp_c'),
});

test('every leaf sums its wallet exactly once and its proof verifies as OpenZeppelin computes it', () => {
  fc.assert(
    fc.property(fc.array(share, { minLength: 1, maxLength: 60 }), (raw) => {
      const shares: PayableShare[] = raw.map((s, i) => ({ ...s, payoutId: `po_${i}` }));
      const d = buildDistribution(shares);
      const expected = new Map<string, bigint>();
      for (const s of shares) expected.set(s.wallet.toLowerCase(), (expected.get(s.wallet.toLowerCase()) ?? 0n) + s.amountBase);
      assert.equal(d.leaves.length, expected.size);
      assert.equal(
        d.total,
        [...expected.values()].reduce((a, b) => a + b, 0n),
      );
      const reference = StandardMerkleTree.of(
        d.leaves.map((l) => [l.wallet, l.amountBase.toString()]),
        ['address', 'uint256'],
      );
      assert.equal(d.root, reference.root);
      for (const l of d.leaves) {
        assert.equal(l.amountBase, expected.get(l.wallet));
        assert.ok(StandardMerkleTree.verify(d.root, ['address', 'uint256'], [l.wallet, l.amountBase.toString()], l.proof));
        // a leaf's proof proves no other amount
        assert.ok(!StandardMerkleTree.verify(d.root, ['address', 'uint256'], [l.wallet, (l.amountBase + 1n).toString()], l.proof));
      }
      for (const s of shares) assert.equal(d.leaves[d.leafOfPayout.get(s.payoutId)!]!.wallet, s.wallet.toLowerCase());
    }),
    { numRuns: fuzzRuns(200) },
  );
});
