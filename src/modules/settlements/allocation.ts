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
  const order = [...weights.keys()].filter((i) => remainders[i]! > 0n);
  const tie = new Map(order.map((i) => [i, tieRank(seed, keys[i]!)]));
  order.sort((a, b) => {
    const ra = remainders[a]!;
    const rb = remainders[b]!;
    if (ra !== rb) return ra > rb ? -1 : 1;
    const ta = tie.get(a)!;
    const tb = tie.get(b)!;
    return ta < tb ? -1 : ta > tb ? 1 : 0;
  });
  for (const i of order) {
    if (left === 0) break;
    shares[i] = shares[i]! + 1n;
    left--;
  }
  return shares;
}

function tieRank(seed: string, key: string): string {
  return createHash('sha256').update(seed).update('|').update(key).digest('hex');
}
