import { createHash } from 'node:crypto';

/**
 * Largest-remainder division of `total` base units in proportion to `weights` (non-negative integers).
 * Everyone first gets the floor of their exact share; the few units left over (fewer than the number of
 * weights) go one each to the largest remainders. Equal remainders are ordered by SHA-256(seed | key),
 * not by position or name, so no one is favoured systematically: across settlements (different seeds) every
 * key is equally likely to win a tie. With all weights zero nothing is allocated (the caller keeps `total`).
 */
export function allocate(total: bigint, weights: readonly bigint[], keys: readonly string[], seed: string): bigint[] {
  const sum = weights.reduce((a, w) => a + w, 0n);
  if (sum === 0n || total === 0n) return weights.map(() => 0n);
  const shares = new Array<bigint>(weights.length);
  const remainders = new Array<bigint>(weights.length);
  let given = 0n;
  for (let i = 0; i < weights.length; i++) {
    const exact = total * weights[i]!;
    shares[i] = exact / sum;
    remainders[i] = exact % sum;
    given += shares[i]!;
  }
  let left = Number(total - given);
  if (left === 0) return shares;
  // The units left go to the largest remainders. Rank by remainder; only the remainders equal to the last
  // one that still gets a unit are tied, and only those are ordered by the seeded hash.
  const order = [...weights.keys()].filter((i) => remainders[i]! > 0n);
  order.sort((a, b) => (remainders[a]! === remainders[b]! ? 0 : remainders[a]! > remainders[b]! ? -1 : 1));
  const threshold = remainders[order[left - 1]!]!;
  const above = order.filter((i) => remainders[i]! > threshold);
  const tied = order.filter((i) => remainders[i]! === threshold);
  for (const i of above) shares[i] = shares[i]! + 1n;
  left -= above.length;
  if (left > 0) {
    const ranks = new Map(tied.map((i) => [i, tieRank(seed, keys[i]!)]));
    tied.sort((a, b) => (ranks.get(a)! < ranks.get(b)! ? -1 : ranks.get(a)! > ranks.get(b)! ? 1 : 0));
    for (const i of tied.slice(0, left)) shares[i] = shares[i]! + 1n;
  }
  return shares;
}

function tieRank(seed: string, key: string): string {
  return createHash('sha256').update(seed).update('|').update(key).digest('hex');
}
