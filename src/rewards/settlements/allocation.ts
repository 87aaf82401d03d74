import { createHash } from 'node:crypto';

/**
 * Largest-remainder division of `total` base units in proportion to `weights` (non-negative integers).
 * Everyone first gets the floor of their exact share; the few units left over (fewer than the number of
 * weights) go one each to the largest remainders. Equal remainders are ordered by SHA-256(seed | key),
 * not by position or name, so no one is favoured systematically: across settlements (different seeds) every
 * key is equally likely to win a tie. With all weights zero nothing is allocated (the caller keeps `total`).
 * `keys` may be a function of the index: keys are only read for the tied remainders.
 */
export function allocate(
  total: bigint,
  weights: readonly bigint[],
  keys: readonly string[] | ((index: number) => string),
  seed: string,
): bigint[] {
  const sum = weights.reduce((a, w) => a + w, 0n);
  if (sum === 0n || total === 0n) return weights.map(() => 0n);
  const shares = new Array<bigint>(weights.length);
  const remainders = new Array<bigint>(weights.length);
  const positive: bigint[] = [];
  let given = 0n;
  for (let i = 0; i < weights.length; i++) {
    const exact = total * weights[i]!;
    const share = exact / sum;
    const remainder = exact - share * sum;
    shares[i] = share;
    remainders[i] = remainder;
    if (remainder > 0n) positive.push(remainder);
    given += share;
  }
  let left = Number(total - given);
  if (left === 0) return shares;
  // The units left go to the largest remainders: the left-th largest remainder is the threshold (found by
  // selection, not by sorting them all); the remainders above it get a unit each, and only the remainders
  // equal to it are tied, ordered by the seeded hash.
  const threshold = nthLargest(positive, left - 1);
  const tied: number[] = [];
  for (let i = 0; i < weights.length; i++) {
    const r = remainders[i]!;
    if (r > threshold) {
      shares[i] = shares[i]! + 1n;
      left--;
    } else if (r === threshold) tied.push(i);
  }
  if (left > 0) {
    const keyOf = typeof keys === 'function' ? keys : (i: number) => keys[i]!;
    const seeded = createHash('sha256').update(seed).update('|');
    const ranked = tied.map((i) => ({ i, rank: seeded.copy().update(keyOf(i)).digest('hex') }));
    ranked.sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
    for (const { i } of ranked.slice(0, left)) shares[i] = shares[i]! + 1n;
  }
  return shares;
}

/**
 * The value at position `n` (0-based) of `values` sorted from largest to smallest: three-way quickselect
 * (linear on average, and fast when many values are equal, as remainders of equal weights are). Reorders
 * `values`.
 */
export function nthLargest(values: bigint[], n: number): bigint {
  let lo = 0;
  let hi = values.length - 1;
  const swap = (a: number, b: number) => {
    const t = values[a]!;
    values[a] = values[b]!;
    values[b] = t;
  };
  for (;;) {
    if (lo >= hi) return values[lo]!;
    const pivot = medianOf3(values[lo]!, values[(lo + hi) >>> 1]!, values[hi]!);
    // [lo, lt) > pivot, [lt, i) == pivot, (gt, hi] < pivot
    let lt = lo;
    let i = lo;
    let gt = hi;
    while (i <= gt) {
      const v = values[i]!;
      if (v > pivot) swap(lt++, i++);
      else if (v < pivot) swap(i, gt--);
      else i++;
    }
    if (n < lt) hi = lt - 1;
    else if (n > gt) lo = gt + 1;
    else return pivot;
  }
}

function medianOf3(a: bigint, b: bigint, c: bigint): bigint {
  if (a > b) [a, b] = [b, a];
  if (b > c) b = c;
  return a > b ? a : b;
}
