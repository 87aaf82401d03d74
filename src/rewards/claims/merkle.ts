import { SimpleMerkleTree } from '@openzeppelin/merkle-tree';
import type { BytesLike } from '@openzeppelin/merkle-tree/dist/bytes.js';
import { createKeccak, type IHasher } from 'hash-wasm';
import type { Hex } from 'viem';

/** One payable payout to put in a batch: its amount and the wallet bound by its recipient. */
export interface PayableShare {
  payoutId: string;
  recipientId: string;
  wallet: string;
  amountBase: bigint;
}

export interface DistributionLeaf {
  /** The leaf's place among the batch's wallets in ascending order (the value index of the standard tree). */
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
 * OpenZeppelin's standard leaf of `[address, uint256]` (`standardLeafHash` of @openzeppelin/merkle-tree):
 * `keccak256(bytes.concat(keccak256(abi.encode(account, amount))))`, what the distributor's `claim` hashes.
 */
export async function standardLeafHash(wallet: Hex, amountBase: bigint): Promise<Hex> {
  return leafHash(await keccakHasher(), wallet, amountBase);
}

/**
 * The distribution of a batch: the shares summed per wallet (lower-case), as an OpenZeppelin standard Merkle
 * tree of `[address, uint256]` leaves (double-hashed, sorted pairs), with every leaf's proof. What
 * `StandardMerkleTree.verify(root, ['address', 'uint256'], [wallet, amount], proof)` and the distributor's
 * `claim` both accept.
 *
 * The tree is @openzeppelin/merkle-tree's `SimpleMerkleTree` over the standard leaf hashes: a standard tree is
 * that simple tree (`StandardMerkleTree.of` hashes each value with `standardLeafHash` and builds the same sorted
 * tree with the same node hash), so root, proofs and value indexes are those of `StandardMerkleTree.of(values,
 * ['address', 'uint256'])` (test/claims/merkle.test.ts compares both). The leaves are hashed here rather than
 * by the library's generic ABI encoder, which was most of the time of a 100,000-leaf batch.
 */
export async function buildDistribution(shares: readonly PayableShare[]): Promise<Distribution> {
  const keccak = await keccakHasher();
  const perWallet = new Map<string, bigint>();
  for (const s of shares) {
    const wallet = s.wallet.toLowerCase();
    perWallet.set(wallet, (perWallet.get(wallet) ?? 0n) + s.amountBase);
  }
  // lower-case addresses of one length: their order as text is their order as numbers (and no comparator to call)
  const wallets = [...perWallet.keys()].sort() as Hex[];
  const hashes = wallets.map((wallet) => leafHash(keccak, wallet, perWallet.get(wallet)!));
  // The tree sorts its leaves by hash, comparing them as numbers parsed from hex each time; handed over in that
  // order already (lower-case hex of one length, sorted as text), its sort is one pass over them.
  const leafOfHash = new Map(hashes.map((hash, index) => [hash, index]));
  const tree = withoutStackTraces(() => SimpleMerkleTree.of([...hashes].sort(), { sortLeaves: true, nodeHash: sortedPairHash(keccak) }));
  // The proofs are read off the tree's own node array (its dump): tree.getProof(i) re-hashes and re-checks
  // every value first. The tests verify these proofs with StandardMerkleTree.verify.
  const { tree: nodes, values } = tree.dump();
  const treeIndexOf = new Array<number>(wallets.length);
  for (const { value, treeIndex } of values) treeIndexOf[leafOfHash.get(value as Hex)!] = treeIndex;
  const leaves: DistributionLeaf[] = [];
  let total = 0n;
  wallets.forEach((wallet, index) => {
    const amountBase = perWallet.get(wallet)!;
    total += amountBase;
    leaves.push({ index, wallet, amountBase, proof: proofPath(nodes, treeIndexOf[index]!) });
  });
  const indexOfWallet = new Map<string, number>(wallets.map((wallet, index) => [wallet, index]));
  const leafOfPayout = new Map(shares.map((s) => [s.payoutId, indexOfWallet.get(s.wallet.toLowerCase())!]));
  return { root: tree.root, total, leaves, leafOfPayout };
}

/**
 * Keccak-256 in WebAssembly (hash-wasm): the same digest as viem's and the library's JavaScript keccak256, several
 * times faster (most of a 100,000-leaf batch's CPU was hashing). One hasher, created once; each hash starts it anew.
 */
let hasher: Promise<IHasher> | undefined;
const keccakHasher = () => (hasher ??= createKeccak(256));

/** standardLeafHash on a hasher: `abi.encode(address, uint256)` is the address and the amount, 32 bytes each. */
function leafHash(keccak: IHasher, wallet: Hex, amountBase: bigint): Hex {
  const encoded = Buffer.alloc(64);
  encoded.write(wallet.slice(2), 12, 'hex');
  encoded.write(amountBase.toString(16).padStart(64, '0'), 32, 'hex');
  const inner = keccak.init().update(encoded).digest('binary');
  return `0x${keccak.init().update(inner).digest('hex')}`;
}

/**
 * The library's node hash with the WebAssembly keccak: keccak256 of the two children concatenated in ascending
 * order. The library hands nodes over as lower-case hex of one length, whose order as text is their order as bytes.
 */
function sortedPairHash(keccak: IHasher) {
  const hex = (node: BytesLike) => (typeof node === 'string' ? node.toLowerCase() : `0x${Buffer.from(node).toString('hex')}`);
  return (a: BytesLike, b: BytesLike): string => {
    const [x, y] = [hex(a), hex(b)].sort();
    return `0x${keccak
      .init()
      .update(Buffer.from(x!.slice(2), 'hex'))
      .update(Buffer.from(y!.slice(2), 'hex'))
      .digest('hex')}`;
  };
}

/**
 * Runs `build` without capturing stack traces. The library encodes each leaf with @metamask/abi-utils, whose
 * assertions construct their error (and capture its stack) before checking, also when the check passes: two
 * per leaf, about 2 s of a 100,000-leaf tree. An error thrown meanwhile keeps its message.
 */
function withoutStackTraces<T>(build: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return build();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The sibling hashes from a node up to the root of a complete binary tree laid out as an array (root at 0). */
function proofPath(nodes: readonly string[], treeIndex: number): string[] {
  const proof: string[] = [];
  for (let i = treeIndex; i > 0; i = (i - 1) >> 1) proof.push(nodes[i % 2 === 1 ? i + 1 : i - 1]!);
  return proof;
}
