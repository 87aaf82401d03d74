import { hash } from 'node:crypto';

/**
 * Items grouped by weight: class `c` weighs `weights[c]` and holds `counts[c]` items, item `i` is of class
 * `classOf[i]`. A settlement's million contributions take a few hundred distinct weights, so the division works
 * once per class, not once per item.
 */
export interface WeightClasses {
  weights: readonly bigint[];
  counts: readonly number[];
  classOf: ArrayLike<number>;
}

/**
 * The classes of `count` weights, weight `i` given by `keyAt(i)` as an integer or as its decimal text (equal keys
 * share a class; a text is parsed once per class).
 */
export function weightClasses<K extends bigint | string>(count: number, keyAt: (i: number) => K): WeightClasses {
  const index = new Map<K, number>();
  const weights: bigint[] = [];
  const counts: number[] = [];
  const classOf = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const key = keyAt(i);
    let c = index.get(key);
    if (c === undefined) {
      c = weights.push(BigInt(key)) - 1;
      counts.push(0);
      index.set(key, c);
    }
    counts[c]!++;
    classOf[i] = c;
  }
  return { weights, counts, classOf };
}

/** The total weight of the items of `classes`. */
export function classesTotal({ weights, counts }: WeightClasses): bigint {
  return weights.reduce((sum, w, c) => sum + w * BigInt(counts[c]!), 0n);
}

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
  return allocateClasses(
    total,
    weightClasses(weights.length, (i) => weights[i]!),
    keys,
    seed,
  );
}

/**
 * `allocate` over items grouped by weight: equal weights have equal shares and remainders, so each class's share
 * and remainder is computed once, the threshold of the leftover units is found among the distinct remainders, and
 * only the items of the tied remainder are ranked one by one.
 */
export function allocateClasses(
  total: bigint,
  classes: WeightClasses,
  keys: readonly string[] | ((index: number) => string),
  seed: string,
): bigint[] {
  const { weights, counts, classOf } = classes;
  const n = classOf.length;
  const sum = classesTotal(classes);
  if (sum === 0n || total === 0n) return new Array<bigint>(n).fill(0n);
  const share: bigint[] = [];
  const remainder: bigint[] = [];
  let given = 0n;
  weights.forEach((w, c) => {
    const exact = total * w;
    share[c] = exact / sum;
    remainder[c] = exact - share[c]! * sum;
    given += share[c]! * BigInt(counts[c]!);
  });
  const shares = new Array<bigint>(n);
  for (let i = 0; i < n; i++) shares[i] = share[classOf[i]!]!;
  let left = Number(total - given);
  if (left === 0) return shares;
  // The units left go to the largest remainders: the left-th largest remainder of an item is the threshold; the
  // items above it get a unit each, and only the items whose remainder equals it are tied.
  const items = new Map<bigint, number>();
  remainder.forEach((r, c) => {
    if (r > 0n && counts[c]! > 0) items.set(r, (items.get(r) ?? 0) + counts[c]!);
  });
  const levels = [...items].sort(([a], [b]) => (a > b ? -1 : a < b ? 1 : 0));
  let threshold = 0n;
  let above = 0;
  for (const [r, count] of levels) {
    if (above + count >= left) {
      threshold = r;
      break;
    }
    above += count;
  }
  const plusOne = share.map((s) => s + 1n);
  const tied: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = remainder[classOf[i]!]!;
    if (r > threshold) shares[i] = plusOne[classOf[i]!]!;
    else if (r === threshold) tied.push(i);
  }
  left -= above;
  if (left > 0) {
    const keyOf = typeof keys === 'function' ? keys : (i: number) => keys[i]!;
    const ranks = tied.map((i) => hash('sha256', `${seed}|${keyOf(i)}`, 'hex'));
    // the `left` lowest ranks win, equal ranks in the order of the items (as a stable sort of all would take
    // them): every rank below the left-th lowest, then that rank's items in order until the units run out
    const last = nthSmallest(ranks.slice(), left - 1);
    for (let t = 0; t < tied.length; t++) if (ranks[t]! < last) left--;
    for (let t = 0; t < tied.length; t++) {
      const rank = ranks[t]!;
      if (rank < last || (rank === last && left-- > 0)) shares[tied[t]!] = plusOne[classOf[tied[t]!]!]!;
    }
  }
  return shares;
}

/**
 * The value at position `n` (0-based) of `values` sorted from smallest to largest, by quickselect (linear on
 * average; the tie-break ranks are hashes, so no order of them is adversarial). Reorders `values`.
 */
function nthSmallest(values: string[], n: number): string {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const v = values[i]!;
        values[i++] = values[j]!;
        values[j--] = v;
      }
    }
    if (n <= j) hi = j;
    else if (n >= i) lo = i;
    else return values[n]!;
  }
  return values[lo]!;
}
