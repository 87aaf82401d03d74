import { StandardMerkleTree } from '@openzeppelin/merkle-tree';

/** One payable payout to put in a batch: its amount and the wallet bound by its recipient. */
export interface PayableShare {
  payoutId: string;
  recipientId: string;
  wallet: string;
  amountBase: bigint;
}

export interface DistributionLeaf {
  /** The index of the leaf in the tree (the tree sorts its leaves; this is the tree's own index). */
  index: number;
  wallet: `0x${string}`;
  amountBase: bigint;
  proof: string[];
}

export interface Distribution {
  root: string;
  total: bigint;
  leaves: DistributionLeaf[];
  /** payoutId -> leaf index */
  leafOfPayout: Map<string, number>;
}

/**
 * The distribution of a batch: the shares summed per wallet (lower-case), as an OpenZeppelin standard Merkle
 * tree of `[address, uint256]` leaves (double-hashed, sorted pairs), with every leaf's proof. What
 * `StandardMerkleTree.verify(root, ['address', 'uint256'], [wallet, amount], proof)` and the distributor's
 * `claim` both accept.
 */
export function buildDistribution(shares: readonly PayableShare[]): Distribution {
  const perWallet = new Map<string, bigint>();
  for (const s of shares) {
    const wallet = s.wallet.toLowerCase();
    perWallet.set(wallet, (perWallet.get(wallet) ?? 0n) + s.amountBase);
  }
  const values = [...perWallet.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([w, a]) => [w, a.toString()]);
  const tree = StandardMerkleTree.of(values, ['address', 'uint256']);
  // The proofs are read off the tree's own node array (its dump): tree.getProof(i) re-hashes and re-checks
  // every value first, which is most of the time of a 10,000-leaf batch. The tests verify these proofs with
  // StandardMerkleTree.verify.
  const { tree: nodes, values: entries } = tree.dump();
  const leaves: DistributionLeaf[] = [];
  const indexOfWallet = new Map<string, number>();
  let total = 0n;
  entries.forEach(({ value: [wallet, amountText], treeIndex }, index) => {
    const amountBase = BigInt(amountText as string);
    total += amountBase;
    indexOfWallet.set(wallet as string, index);
    leaves.push({ index, wallet: wallet as `0x${string}`, amountBase, proof: proofPath(nodes, treeIndex) });
  });
  const leafOfPayout = new Map(shares.map((s) => [s.payoutId, indexOfWallet.get(s.wallet.toLowerCase())!]));
  return { root: tree.root, total, leaves, leafOfPayout };
}

/** The sibling hashes from a node up to the root of a complete binary tree laid out as an array (root at 0). */
function proofPath(nodes: readonly string[], treeIndex: number): string[] {
  const proof: string[] = [];
  for (let i = treeIndex; i > 0; i = (i - 1) >> 1) proof.push(nodes[i % 2 === 1 ? i + 1 : i - 1]!);
  return proof;
}
