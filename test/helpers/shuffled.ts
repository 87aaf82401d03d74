/** A copy of `rows` in an order drawn from `rand` (Fisher-Yates): the same seed, the same order. */
export const shuffled = <T>(rows: readonly T[], rand: () => number): T[] => {
  const out = [...rows];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};
