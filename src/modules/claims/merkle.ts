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
  const leaves: DistributionLeaf[] = [];
  const indexOfWallet = new Map<string, number>();
  let total = 0n;
  for (const [index, [wallet, amountText]] of tree.entries()) {
    const amountBase = BigInt(amountText as string);
    total += amountBase;
    indexOfWallet.set(wallet as string, index);
    leaves.push({ index, wallet: wallet as `0x${string}`, amountBase, proof: tree.getProof(index) });
  }
  const leafOfPayout = new Map(shares.map((s) => [s.payoutId, indexOfWallet.get(s.wallet.toLowerCase())!]));
  return { root: tree.root, total, leaves, leafOfPayout };
}
