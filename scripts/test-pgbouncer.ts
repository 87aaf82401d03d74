// npm run test:pgbouncer: the database-heavy test files with the services' connections going through PgBouncer
// in transaction pooling mode (docs/operators.md, "Behind PgBouncer"). It starts one private PgBouncer for the
// run (test/helpers/pgbouncer.ts) in front of TEST_DATABASE_URL's server, and runs scripts/run-tests.mjs with
// TEST_PGBOUNCER=1 and TEST_PGBOUNCER_URL, so that test/helpers/db-template.ts points every service's runtime
// connection (DATABASE_URL) at the pooler while migrations, cloning and the owner's connections stay direct.
// Arguments are file filters, as for npm run test:unit; without them, FILES below.
// Without TEST_DATABASE_URL or without PgBouncer the tier is reported skipped, with the reason, and passes.
// It fails if the pooler carried no transaction of a test database (the tests did not go through it).
import { spawnSync } from 'node:child_process';
import { pgbouncerUsers } from '../test/helpers/db-template.js';
import { pgbouncerUnavailable, startPgbouncer } from '../test/helpers/pgbouncer.js';

/** The files whose services write the most: path filters of scripts/run-tests.mjs. */
const FILES = [
  'test/newsroom/', // story writes, votes, reviews, concurrency
  'test/settlements/',
  'test/control-plane/',
  'test/webhooks/', // outbox, worker, several instances
  'test/users/', // readers' writes, per-reader advisory locks
  'test/site/', // the reader site's sessions in PostgreSQL
  'test/governance/',
  'test/claims/',
  'test/audit/',
  'test/platform/', // privileges, migrations, read cache, logging
  'test/auth/access.test.ts', // rate limits, idempotency keys
  'test/agents/sdk-client.test.ts', // idempotent retries
  'test/robustness/no-500.test.ts',
  'test/chaos/multi-instance.test.ts', // idempotent writes across two instances
  'test/moderation/',
];

const base = process.env.TEST_DATABASE_URL;
const skip = !base ? 'TEST_DATABASE_URL is not set (PgBouncer pools a PostgreSQL server)' : pgbouncerUnavailable();
if (skip) {
  console.error(`test:pgbouncer skipped: ${skip}`);
  process.exit(0);
}

const started = Date.now();
const pooler = await startPgbouncer({ serverUrl: base!, users: pgbouncerUsers(base!) });
console.error(`test:pgbouncer: PgBouncer (transaction pooling) on ${pooler.host}:${pooler.port} in front of ${new URL(base!).host}`);
let status = 1;
try {
  const filters = process.argv.slice(2);
  const run = spawnSync(process.execPath, ['scripts/run-tests.mjs', ...(filters.length ? filters : FILES)], {
    stdio: 'inherit',
    // PgBouncer 1.18 does not track named statements: also for the processes that take the runner's environment
    env: {
      ...process.env,
      TEST_PGBOUNCER: '1',
      TEST_PGBOUNCER_URL: `postgres://${pooler.host}:${pooler.port}`,
      DATABASE_PREPARED_STATEMENTS: '0',
    },
  });
  status = run.status ?? 1;
  const carried = (await pooler.stats()).filter((s) => s.database.startsWith('svc_test_'));
  const transactions = carried.reduce((sum, s) => sum + s.transactions, 0);
  const queries = carried.reduce((sum, s) => sum + s.queries, 0);
  console.error(`test:pgbouncer: the pooler carried ${transactions} transactions (${queries} queries) of ${carried.length} test databases`);
  if (transactions === 0) {
    console.error('test:pgbouncer: no test database was reached through the pooler');
    status ||= 1;
  }
} finally {
  await pooler.stop();
}
console.error(`test:pgbouncer: ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(status);
