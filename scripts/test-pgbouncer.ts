// npm run test:pgbouncer: the database-heavy test files with the services' connections going through PgBouncer
// in transaction pooling mode (docs/operators.md, "Behind PgBouncer"). It starts one private PgBouncer for the
// run (test/helpers/pgbouncer.ts) in front of TEST_DATABASE_URL's server, and runs scripts/run-tests.mjs with
// TEST_PGBOUNCER=1 and TEST_PGBOUNCER_URL, so that test/helpers/db-template.ts points every service's runtime
// connection (DATABASE_URL) at the pooler while migrations, cloning and the owner's connections stay direct.
// Arguments are file filters, as for npm run test:unit; without them, FILES below. `--named` runs the second pass
// alone.
// A second pass runs NAMED_FILES behind a PgBouncer that carries named statements (1.21 or later, built by
// scripts/build-pgbouncer.sh: Debian 12's is 1.18), with the services' named statements on.
// Without TEST_DATABASE_URL or without either PgBouncer, that pass is reported skipped, with the reason, and passes.
// A pass fails if its pooler carried no transaction of a test database (the tests did not go through it).
import { spawnSync } from 'node:child_process';
import { pgbouncerUsers } from '../test/helpers/db-template.js';
import { pgbouncerUnavailable, startPgbouncer, TRACKING_POOLER, type PgbouncerOptions } from '../test/helpers/pgbouncer.js';

/**
 * The files whose services write the most: path filters of scripts/run-tests.mjs. The files the second pass runs
 * (readers' writes, the read cache, two instances sharing a pooler, the robustness run) go through a pooler there,
 * in the same transaction mode, and are not run twice; of the platform files, those about the database are (the
 * others test the OpenAPI document and its client, Redis topologies, the docs' words, request tallies...).
 */
const FILES = [
  'test/newsroom/', // story writes, votes, reviews, concurrency
  'test/settlements/',
  'test/control-plane/',
  'test/webhooks/', // outbox, worker, several instances
  // the reader site's sessions in PostgreSQL, over HTTP: the browser files (Chromium) send the pooler the same
  // statements through the same routes, at many times the CPU
  'test/site/web.test.ts',
  'test/site/reader-accounts.test.ts',
  'test/site/world-id-login.test.ts',
  'test/governance/',
  'test/claims/',
  'test/audit/',
  'test/platform/db-privileges.test.ts', // the runtime role's rights through the pooler
  'test/platform/migrations.test.ts',
  'test/platform/read-replica.test.ts',
  'test/platform/copy-timeout.test.ts',
  'test/platform/reusable-query.test.ts',
  'test/platform/logging.test.ts',
  'test/auth/access.test.ts', // rate limits, idempotency keys
  'test/agents/sdk-client.test.ts', // idempotent retries
  'test/moderation/',
];

/**
 * The files of the second pass, behind a PgBouncer that carries named statements, with the services' named
 * statements on: the reads that send them (feed, story, ledger, evidence, the site's pages), the read cache, the
 * human signed write's merge, and two instances sharing one pooler.
 */
const NAMED_FILES = [
  'test/newsroom-reads/',
  'test/site/pages.test.ts',
  'test/users/',
  'test/platform/read-cache.test.ts',
  'test/chaos/multi-instance.test.ts',
  'test/robustness/no-500.test.ts',
];

interface Pass {
  label: string;
  files: string[];
  /** Why the pass cannot run here, or undefined. */
  skip: string | undefined;
  pooler: Partial<PgbouncerOptions>;
  env: Record<string, string>;
}

const base = process.env.TEST_DATABASE_URL;
// --named: the second pass alone (.ci/run runs the whole suite through a pooler already: TEST_PGBOUNCER=1 npm test)
const namedOnly = process.argv.includes('--named');
const filters = process.argv.slice(2).filter((a) => a !== '--named');
const passes: Pass[] = [
  {
    label: 'PgBouncer (transaction pooling), named statements off',
    files: filters.length ? filters : FILES,
    skip: pgbouncerUnavailable(),
    pooler: {},
    // PgBouncer 1.18 does not track named statements: also for the processes that take the runner's environment
    env: { DATABASE_PREPARED_STATEMENTS: '0' },
  },
  {
    label: 'PgBouncer 1.21+ (transaction pooling, max_prepared_statements), named statements on',
    files: filters.length ? filters : NAMED_FILES,
    skip: pgbouncerUnavailable(TRACKING_POOLER.bin, true),
    pooler: TRACKING_POOLER,
    env: { TEST_PGBOUNCER_NAMED: '1', DATABASE_PREPARED_STATEMENTS: '1' },
  },
];

if (!base) {
  console.error('test:pgbouncer skipped: TEST_DATABASE_URL is not set (PgBouncer pools a PostgreSQL server)');
  process.exit(0);
}

let status = 0;
for (const pass of namedOnly ? passes.slice(1) : passes) {
  if (pass.skip) {
    console.error(`test:pgbouncer: ${pass.label}: skipped: ${pass.skip}`);
    continue;
  }
  status ||= await runPass(base, pass);
}
process.exit(status);

async function runPass(server: string, pass: Pass): Promise<number> {
  const started = Date.now();
  const pooler = await startPgbouncer({ serverUrl: server, users: pgbouncerUsers(server), ...pass.pooler });
  console.error(`test:pgbouncer: ${pass.label}, on ${pooler.host}:${pooler.port} in front of ${new URL(server).host}`);
  let status: number;
  try {
    const run = spawnSync(process.execPath, ['scripts/run-tests.mjs', ...pass.files], {
      stdio: 'inherit',
      env: { ...process.env, TEST_PGBOUNCER: '1', TEST_PGBOUNCER_URL: `postgres://${pooler.host}:${pooler.port}`, ...pass.env },
    });
    status = run.status ?? 1;
    const carried = (await pooler.stats()).filter((s) => s.database.startsWith('svc_test_'));
    const transactions = carried.reduce((sum, s) => sum + s.transactions, 0);
    const queries = carried.reduce((sum, s) => sum + s.queries, 0);
    console.error(
      `test:pgbouncer: the pooler carried ${transactions} transactions (${queries} queries) of ${carried.length} test databases`,
    );
    if (transactions === 0) {
      console.error('test:pgbouncer: no test database was reached through the pooler');
      status ||= 1;
    }
  } finally {
    await pooler.stop();
  }
  console.error(`test:pgbouncer: ${pass.label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return status;
}
