/**
 * mulberry32: a small, fast 32-bit seeded generator (public domain, Tommy Ettinger). Louvain visits nodes in
 * an order drawn from its `rng`; drawing it from this generator with a fixed seed makes the communities the
 * same on every run and every instance. The simulator draws its newsrooms from it too.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
