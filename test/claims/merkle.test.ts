import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SimpleMerkleTree, StandardMerkleTree } from '@openzeppelin/merkle-tree';
import fc from 'fast-check';
import { bytesToHex } from 'viem';
import {
  buildDistribution,
  keccakHasher,
  proofHashes,
  SortedTree,
  standardLeafHash,
  verifySample,
  type PayableShare,
} from '../../src/rewards/claims/merkle.js';
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
      const shares: PayableShare[] = raw.map((s, i) => ({ ...s, payoutId: `po-${i + 1}` }));
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
        const proof = proofHashes(l.proof);
        assert.ok(StandardMerkleTree.verify(d.root, ['address', 'uint256'], [l.wallet, l.amountBase.toString()], proof));
        // a leaf's proof proves no other amount
        assert.ok(!StandardMerkleTree.verify(d.root, ['address', 'uint256'], [l.wallet, (l.amountBase + 1n).toString()], proof));
      }
      shares.forEach((s, i) => assert.equal(d.leaves[d.leafOfShare[i]!]!.wallet, s.wallet.toLowerCase()));
    }),
    { numRuns: fuzzRuns(200) },
  );
});

test("the sorted tree over standard leaf hashes, in any order, has the library's root, leaf hashes and proofs", async () => {
  // 1 and 2 leaves (a root that is the leaf; one pair) always, then any size; every node but the root is in
  // some leaf's proof, so equal proofs and roots are equal node arrays
  const sized = fc.oneof(entries(1), entries(2), entries(80));
  const keccak = await keccakHasher();
  await fc.assert(
    fc.asyncProperty(sized, async (values) => {
      const standard = StandardMerkleTree.of(
        values.map(([address, amount]) => [address, amount.toString()]),
        ENCODING,
      );
      const hashes = await Promise.all(values.map(([address, amount]) => standardLeafHash(address, amount)));
      const tree = new SortedTree(values.length);
      hashes.forEach((hash, i) => tree.setLeaf(i, Buffer.from(hash.slice(2), 'hex')));
      tree.build(keccak);
      assert.equal(tree.root(), standard.root);
      const proofs = tree.proofs();
      values.forEach(([address, amount], i) => {
        assert.equal(hashes[i], standard.leafHash([address, amount.toString()]));
        assert.deepEqual(proofHashes(proofs[i]!), standard.getProof(i));
      });
    }),
    { numRuns: fuzzRuns(300) },
  );
});

test("a batch's root, leaf order and proofs are those of StandardMerkleTree.of over its wallets in ascending order", async () => {
  await fc.assert(
    fc.asyncProperty(fc.oneof(entries(1), entries(2), entries(80)), async (values) => {
      const shares: PayableShare[] = values.map(([address, amount], i) => ({
        payoutId: `po-${i + 1}`,
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
        assert.deepEqual(proofHashes(l.proof), standard.getProof(i));
      });
    }),
    { numRuns: fuzzRuns(300) },
  );
});

test("the sorted tree orders leaves that share their first bytes, or are equal, as the library's simple tree does", async () => {
  const keccak = await keccakHasher();
  // leaves drawn from few prefixes and tails, so most share their first 8 bytes and some are equal
  const tail = fc.oneof(
    fc.constantFrom(...[0, 1, 2].map((n) => new Uint8Array(24).fill(n))),
    fc.uint8Array({ minLength: 24, maxLength: 24 }),
  );
  const leaf = fc.tuple(fc.constantFrom(0x00, 0x7f, 0xff), tail).map(([head, rest]) => Buffer.concat([Buffer.alloc(8, head), rest]));
  await fc.assert(
    fc.property(fc.array(leaf, { minLength: 1, maxLength: 40 }), (leaves) => {
      const simple = SimpleMerkleTree.of(leaves, { sortLeaves: true });
      const tree = new SortedTree(leaves.length);
      leaves.forEach((l, i) => tree.setLeaf(i, l));
      tree.build(keccak);
      assert.equal(tree.root(), simple.root);
      const proofs = tree.proofs();
      leaves.forEach((_, i) => assert.deepEqual(proofHashes(proofs[i]!), simple.getProof(i)));
    }),
    { numRuns: fuzzRuns(300) },
  );
});

test('a batch whose proofs do not verify with the library is refused before it is stored', async () => {
  const shares: PayableShare[] = Array.from({ length: 200 }, (_, i) => ({
    payoutId: `po-${i + 1}`,
    recipientId: `rcp_${i}`,
    wallet: `0x${(i + 1).toString(16).padStart(40, '0')}`,
    amountBase: BigInt(i + 1),
  }));
  const d = await buildDistribution(shares);
  assert.doesNotThrow(() => verifySample(d.root, d.leaves));
  // one byte of the last leaf's proof changed; then the first leaf's amount
  const tampered = d.leaves.map((l) => ({ ...l, proof: Buffer.from(l.proof) }));
  tampered[tampered.length - 1]!.proof[5]! ^= 1;
  assert.throws(() => verifySample(d.root, tampered), /leaf 199 does not verify/);
  const wrongAmount = d.leaves.map((l, i) => (i === 0 ? { ...l, amountBase: l.amountBase + 1n } : l));
  assert.throws(() => verifySample(d.root, wrongAmount), /leaf 0 does not verify/);
});
