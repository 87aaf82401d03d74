/**
 * Run counts of property loops. `npm test` runs a short smoke version of each; `npm run test:fuzz`
 * (TEST_FUZZ=1) runs the full count. FUZZ_RUNS_SCALE=<n> multiplies either, for a local hunt.
 * scripts/run-tests.mjs --fuzz runs every test file that calls fuzzRuns() or fuzzTierOnly().
 */
export const FULL_FUZZ = process.env.TEST_FUZZ === '1';

export function fuzzRuns(full: number, smoke = Math.max(5, Math.round(full / 10))): number {
  const scale = Number(process.env.FUZZ_RUNS_SCALE ?? '1') || 1;
  return Math.max(1, Math.round((FULL_FUZZ ? full : Math.min(smoke, full)) * scale));
}

/**
 * Skip reason for a test too slow for every `npm test` (well over a minute: it installs packages with npm, say).
 * Pass it as node:test's `skip` option, on each test: `npm run test:fuzz` (TEST_FUZZ=1), which .ci/run runs after
 * npm test, runs the test; any other run reports it as skipped, with the reason, never as passed.
 */
export function fuzzTierOnly(what: string): string | false {
  return FULL_FUZZ ? false : `${what}: too slow for every run, npm run test:fuzz runs it`;
}
