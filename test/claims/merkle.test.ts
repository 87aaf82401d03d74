import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SimpleMerkleTree, StandardMerkleTree } from '@openzeppelin/merkle-tree';
import fc from 'fast-check';
import { bytesToHex } from 'viem';
import { buildDistribution, standardLeafHash, type PayableShare } from '../../src/rewards/claims/merkle.js';
import { fuzzRuns } from '../helpers/fuzz.js';

const wallet = fc.integer({ min: 1, max: 40 }).map((n) => `0x${n.toString(16).padStart(40, '0').toUpperCase().replace('0X', '')}`);
const share = fc.record({
  wallet,
  amountBase: fc.bigInt({ min: 1n, max: 2n ** 200n }),
  recipientId: fc.constantFrom('rcp_a', 'rcp_b', 'rcp_c'),
});
/** Distinct random addresses (lower-case), each with any uint256: the values of a standard tree. */
const entries = (maxLength: number) =>
  fc.uniqueArray(
    fc.tuple(
      fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => bytesToHex(b)),
      fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
    ),
    { minLength: 1, maxLength, selector: ([address]) => address },
  );
const ENCODING = ['address', 'uint256'];

test('every leaf sums its wallet exactly once and its proof verifies as OpenZeppelin computes it', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(share, { minLength: 1, maxLength: 60 }), async (raw) => {
      const shares: PayableShare[] = raw.map((s, i) => ({ ...s, payoutId: `po_${i}` }));
      const d = await buildDistribution(shares);
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

test('the standard tree of [address, uint256] values is the simple tree of their standard leaf hashes', async () => {
  // 1 and 2 leaves (a root that is the leaf; one pair) always, then any size
  const sized = fc.oneof(entries(1), entries(2), entries(80));
  await fc.assert(
    fc.asyncProperty(sized, async (values) => {
      const standard = StandardMerkleTree.of(
        values.map(([address, amount]) => [address, amount.toString()]),
        ENCODING,
      );
      const hashes = await Promise.all(values.map(([address, amount]) => standardLeafHash(address, amount)));
      const simple = SimpleMerkleTree.of(hashes, { sortLeaves: true });
      assert.equal(simple.root, standard.root);
      assert.deepEqual(simple.dump().tree, standard.dump().tree);
      values.forEach(([address, amount], i) => {
        assert.equal(hashes[i], standard.leafHash([address, amount.toString()]));
        assert.deepEqual(simple.getProof(i), standard.getProof(i));
      });
    }),
    { numRuns: fuzzRuns(300) },
  );
});

test("a batch's root, leaf order and proofs are those of StandardMerkleTree.of over its wallets in ascending order", async () => {
  await fc.assert(
    fc.asyncProperty(fc.oneof(entries(1), entries(2), entries(80)), async (values) => {
      const shares: PayableShare[] = values.map(([address, amount], i) => ({
        payoutId: `po_${i}`,
        recipientId: `rcp_${i}`,
        wallet: address,
        amountBase: amount || 1n, // a payable amount is positive
      }));
      const d = await buildDistribution(shares);
      const ascending = [...shares].sort((a, b) => (a.wallet < b.wallet ? -1 : 1));
      const standard = StandardMerkleTree.of(
        ascending.map((s) => [s.wallet, s.amountBase.toString()]),
        ENCODING,
      );
      assert.equal(d.root, standard.root);
      assert.equal(d.leaves.length, ascending.length);
      d.leaves.forEach((l, i) => {
        assert.equal(l.index, i);
        assert.equal(l.wallet, ascending[i]!.wallet);
        assert.deepEqual(l.proof, standard.getProof(i));
      });
    }),
    { numRuns: fuzzRuns(300) },
  );
});
