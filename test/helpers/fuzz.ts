/**
 * Run counts of property loops. `npm test` runs a short smoke version of each; `npm run test:fuzz`
 * (TEST_FUZZ=1) runs the full count. FUZZ_RUNS_SCALE=<n> multiplies either, for a local hunt.
 * scripts/run-tests.mjs --fuzz runs every test file that calls fuzzRuns().
 */
export const FULL_FUZZ = process.env.TEST_FUZZ === '1';

export function fuzzRuns(full: number, smoke = Math.max(5, Math.round(full / 10))): number {
  const scale = Number(process.env.FUZZ_RUNS_SCALE ?? '1') || 1;
  return Math.max(1, Math.round((FULL_FUZZ ? full : Math.min(smoke, full)) * scale));
}
