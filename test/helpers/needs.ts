/**
 * Skip reasons for tests that need a real server. Pass the result as node:test's `skip` option
 * (`test(name, { skip: needsRedis('…') }, fn)`): with the server configured it is `false` and the test runs,
 * without it the runner reports the test as skipped with the reason, never as passed and never left out.
 * Put it on each test, not on a describe: node counts the tests of a skipped describe nowhere.
 */
export function needsRedis(why: string): string | false {
  return process.env.TEST_REDIS_URL ? false : `needs TEST_REDIS_URL: ${why}`;
}

/** Same for PostgreSQL (TEST_DATABASE_URL): e.g. concurrency, which single-session PGlite cannot show. */
export function needsPostgres(why: string): string | false {
  return process.env.TEST_DATABASE_URL ? false : `needs TEST_DATABASE_URL: ${why}`;
}
