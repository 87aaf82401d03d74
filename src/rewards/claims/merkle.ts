import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
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
  /** The proof: the sibling hashes from the leaf up to the root, 32 bytes each, one after the other. */
  proof: Buffer;
}

export interface Distribution {
  root: Hex;
  total: bigint;
  leaves: DistributionLeaf[];
  /** The leaf of each share, in the order of the shares given. */
  leafOfShare: Int32Array;
}

/**
 * OpenZeppelin's standard leaf of `[address, uint256]` (`standardLeafHash` of @openzeppelin/merkle-tree):
 * `keccak256(bytes.concat(keccak256(abi.encode(account, amount))))`, what the distributor's `claim` hashes.
 */
export async function standardLeafHash(wallet: Hex, amountBase: bigint): Promise<Hex> {
  return `0x${Buffer.from(leafHash(await keccakHasher(), wallet, amountBase)).toString('hex')}`;
}

/**
 * The distribution of a batch: the shares summed per wallet (lower-case), as an OpenZeppelin standard Merkle
 * tree of `[address, uint256]` leaves (double-hashed, sorted pairs), with every leaf's proof. What
 * `StandardMerkleTree.verify(root, ['address', 'uint256'], [wallet, amount], proof)` and the distributor's
 * `claim` both accept: root, node array, proofs and value indexes are those of `StandardMerkleTree.of(values,
 * ['address', 'uint256'])` over the wallets in ascending order (test/claims/merkle.test.ts compares them).
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
  const amounts = wallets.map((wallet) => perWallet.get(wallet)!);
  const tree = new SortedTree(wallets.length);
  wallets.forEach((wallet, i) => tree.setLeaf(i, leafHash(keccak, wallet, amounts[i]!)));
  tree.build(keccak);
  const proofs = tree.proofs();
  const leaves: DistributionLeaf[] = [];
  let total = 0n;
  wallets.forEach((wallet, index) => {
    total += amounts[index]!;
    leaves.push({ index, wallet, amountBase: amounts[index]!, proof: proofs[index]! });
  });
  const root = tree.root();
  verifySample(root, leaves);
  const indexOfWallet = new Map<string, number>(wallets.map((wallet, index) => [wallet, index]));
  const leafOfShare = Int32Array.from(shares, (s) => indexOfWallet.get(s.wallet.toLowerCase())!);
  return { root, total, leaves, leafOfShare };
}

/** Leaves whose proofs every batch checks with the library before it is stored. */
const SAMPLE = 64;

/**
 * Checks the proofs of the first and last leaf and of up to SAMPLE spread between them with
 * @openzeppelin/merkle-tree's `StandardMerkleTree.verify`, what a claimant and the distributor compute: a tree
 * that does not verify is never stored. About 0.1 s, whatever the batch's size.
 */
export function verifySample(root: Hex, leaves: readonly DistributionLeaf[]): void {
  const step = Math.max(1, Math.floor(leaves.length / SAMPLE));
  const sample = new Set<number>();
  for (let i = 0; i < leaves.length; i += step) sample.add(i);
  if (leaves.length > 0) sample.add(leaves.length - 1);
  for (const i of sample) {
    const l = leaves[i]!;
    if (!StandardMerkleTree.verify(root, ['address', 'uint256'], [l.wallet, l.amountBase.toString()], proofHashes(l.proof)))
      throw new Error(`claim tree: the proof of leaf ${i} does not verify against the root`);
  }
}

const HASH = 32;

/**
 * The tree of @openzeppelin/merkle-tree (its `makeMerkleTree` with the default sorted-pair node hash, leaves
 * sorted, as `StandardMerkleTree.of` builds it) over 32-byte leaf hashes: a complete binary tree laid out as an
 * array, root at 0, the children of node i at 2i+1 and 2i+2, the leaves sorted ascending and placed from the
 * last slot backwards; each inner node is keccak256 of its two children in ascending byte order. Built here on
 * one array of bytes rather than by the library, which works on hex text and checks and converts every node as
 * it goes: for a 100,000-leaf batch that was most of the finalize's time (docs/adr/0033-claim-rail.md). The library stays the reference in the tests (test/claims/merkle.test.ts).
 */
export class SortedTree {
  private readonly nodes: Uint8Array;
  /** The nodes as 32-bit words, 8 per node: a proof is copied a word at a time. */
  private readonly words: Int32Array;
  private readonly leaves: Uint8Array;
  /** treeIndexOf[i]: the slot of leaf i (set by build). */
  private readonly treeIndexOf: Int32Array;

  constructor(private readonly leafCount: number) {
    this.nodes = new Uint8Array(HASH * Math.max(2 * leafCount - 1, 1));
    this.words = new Int32Array(this.nodes.buffer);
    this.leaves = new Uint8Array(HASH * leafCount);
    this.treeIndexOf = new Int32Array(leafCount);
  }

  setLeaf(i: number, hash: Uint8Array): void {
    this.leaves.set(hash, HASH * i);
  }

  build(keccak: IHasher): void {
    const n = this.leafCount;
    const leaves = Buffer.from(this.leaves.buffer);
    // sorted by their first 6 bytes as a number, then by all their bytes
    const prefix = new Float64Array(n);
    for (let i = 0; i < n; i++) prefix[i] = leaves.readUIntBE(HASH * i, 6);
    const order = Array.from({ length: n }, (_, i) => i).sort(
      (a, b) => prefix[a]! - prefix[b]! || leaves.compare(leaves, HASH * b, HASH * b + HASH, HASH * a, HASH * a + HASH),
    );
    const last = 2 * n - 2;
    order.forEach((leaf, k) => {
      this.nodes.set(this.leaves.subarray(HASH * leaf, HASH * leaf + HASH), HASH * (last - k));
      this.treeIndexOf[leaf] = last - k;
    });
    const node = (i: number) => this.nodes.subarray(HASH * i, HASH * i + HASH);
    for (let i = last - n; i >= 0; i--) {
      const left = node(2 * i + 1);
      const right = node(2 * i + 2);
      const [low, high] = Buffer.compare(left, right) <= 0 ? [left, right] : [right, left];
      this.nodes.set(keccak.init().update(low).update(high).digest('binary'), HASH * i);
    }
  }

  root(): Hex {
    return `0x${Buffer.from(this.nodes.buffer, 0, HASH).toString('hex')}`;
  }

  /** Every leaf's proof (the sibling hashes from the leaf up to the root, one after the other), in leaf order. */
  proofs(): Buffer[] {
    const depth = (slot: number) => {
      let d = 0;
      for (let i = slot; i > 0; i = (i - 1) >> 1) d++;
      return d;
    };
    let size = 0;
    for (let leaf = 0; leaf < this.leafCount; leaf++) size += depth(this.treeIndexOf[leaf]!);
    // one block for all proofs, each a view of its part
    const block = new Int32Array(size * (HASH / 4));
    const bytes = Buffer.from(block.buffer);
    const proofs = new Array<Buffer>(this.leafCount);
    const { words, treeIndexOf } = this;
    let at = 0;
    for (let leaf = 0; leaf < this.leafCount; leaf++) {
      const from = at;
      for (let i = treeIndexOf[leaf]!; i > 0; i = (i - 1) >> 1) {
        const sibling = (i % 2 === 1 ? i + 1 : i - 1) * 8;
        for (let w = 0; w < 8; w++) block[at++] = words[sibling + w]!;
      }
      proofs[leaf] = bytes.subarray(from * 4, at * 4);
    }
    return proofs;
  }
}

/** A proof as the API and the distributor take it: the sibling hashes as 0x-prefixed hex, leaf to root. */
export function proofHashes(proof: Uint8Array): Hex[] {
  const bytes = Buffer.from(proof.buffer, proof.byteOffset, proof.byteLength);
  const hashes: Hex[] = [];
  for (let at = 0; at < bytes.length; at += 32) hashes.push(`0x${bytes.toString('hex', at, at + 32)}`);
  return hashes;
}

/**
 * Keccak-256 in WebAssembly (hash-wasm): the same digest as viem's and the library's JavaScript keccak256, several
 * times faster (most of a 100,000-leaf batch's CPU was hashing). One hasher, created once; each hash starts it anew.
 */
let hasher: Promise<IHasher> | undefined;
export const keccakHasher = () => (hasher ??= createKeccak(256));

/** standardLeafHash on a hasher: `abi.encode(address, uint256)` is the address and the amount, 32 bytes each. */
function leafHash(keccak: IHasher, wallet: Hex, amountBase: bigint): Uint8Array {
  const encoded = Buffer.alloc(64);
  encoded.write(wallet.slice(2), 12, 'hex');
  encoded.write(amountBase.toString(16).padStart(64, '0'), 32, 'hex');
  const inner = keccak.init().update(encoded).digest('binary');
  return keccak.init().update(inner).digest('binary');
}
