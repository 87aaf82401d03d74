#!/usr/bin/env node
// Runs test files with node's test runner, on the TypeScript compiled once per run (scripts/build-tests.mjs;
// TEST_TSX=1 runs the sources through tsx instead).
//   node scripts/run-tests.mjs            every *.test.ts under test/, src/ and sdk/; property loops at their
//                                         smoke counts (npm test, npm run test:unit)
//   node scripts/run-tests.mjs --fast     only test/unit/: the pure rules, no database (npm run test:fast)
//   node scripts/run-tests.mjs --fuzz     the files whose property loops call fuzzRuns(), at their full counts,
//                                         and those whose slow tests call fuzzTierOnly() (npm run test:fuzz)
// Extra arguments are file filters: `npm run test:unit -- auth` runs files whose path contains "auth".
// Test files share processes: they are dealt into a few groups (four per concurrent process), and each group's
// process imports its files one after the other, so that loading the app's ~800 modules, compiling PGlite's
// WebAssembly and warming the reusable test databases happen once per group instead of once per file. Node's own
// --test-isolation=none does the same for one process only, which would leave one of the machine's cores idle.
// Each file is imported inside a suite named by its path: its top-level hooks then belong to it, so a file's
// before() runs when its tests start and its after() when they end (at the root, every file's before() would run
// at once when the process starts and every after() at its end, keeping all the group's apps and databases alive
// together), and a top-level beforeEach/afterEach reaches only its own file's tests. The helpers' end-of-process
// hooks (test/helpers/app.ts) are registered at the root first. TEST_ISOLATE=1 gives every file its own process,
// as node's runner does by default. A shared process tells, as it exits, how many of its files it imported:
// the run fails if one ended (or was killed) before importing them all, whose tests would otherwise be missing from a
// run that looks green.
// TEST_CONCURRENCY sets how many processes run at once (default: twice the available parallelism);
// TEST_REPORTER names a node test reporter (e.g. spec); TEST_TIMEOUT_MS how long one test process
// (a group of files) may take (600000).
// Before the files start, the migrated database template is built once (scripts/prepare-test-db.ts); with
// TEST_REDIS_URL the run fails if it left keys without a TTL under its own prefix test:<run id>.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildTests } from './build-tests.mjs';

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const args = process.argv.slice(2);
const tier = args.includes('--fast') ? 'fast' : args.includes('--fuzz') ? 'fuzz' : 'all';
const filters = args.filter((a) => !a.startsWith('--'));
const files = ['test', 'src', 'sdk']
  .flatMap((d) => {
    try {
      return walk(d);
    } catch {
      return [];
    }
  })
  .filter((f) => tier !== 'fast' || f.startsWith(`test${sep}unit${sep}`))
  .filter((f) => tier !== 'fuzz' || /\b(fuzzRuns|fuzzTierOnly)\(/.test(readFileSync(f, 'utf8')))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

const runId = randomBytes(4).toString('hex');
const env = { ...process.env, NODE_ENV: 'test', TEST_RUN_ID: runId, ...(tier === 'fuzz' ? { TEST_FUZZ: '1' } : {}) };
const started = Date.now();

if (tier !== 'fast') {
  const prepared = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/prepare-test-db.ts'], { stdio: 'inherit', env });
  if (prepared.status !== 0) {
    console.error('could not prepare the test database template');
    process.exit(prepared.status ?? 1);
  }
}

// Two processes per core: a test process spends part of its time waiting (timers, child processes, the browser), and
// a second one per core fills it (the whole suite on the 2-core machine: 174 s at four at a time, 190 s at two).
const concurrency = process.env.TEST_CONCURRENCY ?? String(Math.max(2, 2 * availableParallelism()));
const reporter = process.env.TEST_REPORTER ? [`--test-reporter=${process.env.TEST_REPORTER}`, '--test-reporter-destination=stdout'] : [];
const build = process.env.TEST_TSX ? undefined : await buildTests(process.cwd(), runId);
const runner = build ? ['--enable-source-maps'] : ['--import', 'tsx'];
const groupDir = build ? build.dir : mkdtempSync(join(tmpdir(), 'newsroom-test-groups-'));
/** Each shared process's files and the file where it tells how many of them it imported. */
const tallies = [];
// the module whose root after() closes what a process's tests kept for reuse (not needed by the pure tier)
const helpers = tier === 'fast' ? undefined : build ? build.compiled('test/helpers/app.ts') : join(process.cwd(), 'test/helpers/app.ts');
const entries = groupFiles(files, Number(concurrency) * 4).map((group, i) => {
  const targets = group.map((f) => (build ? build.compiled(f) : join(process.cwd(), f)));
  if (targets.length === 1) return targets[0];
  const entry = join(groupDir, `group-${i + 1}.test.mjs`);
  const tally = join(groupDir, `group-${i + 1}.imported`);
  tallies.push({ tally, files: group });
  writeFileSync(
    entry,
    [
      `// ${group.join(', ')}`,
      `import { writeFileSync } from 'node:fs';`,
      `import { describe } from 'node:test';`,
      ...(helpers ? [`import ${JSON.stringify(pathToFileURL(helpers).href)};`] : []),
      // how many of its files the process imported, told as it exits: a process that ends before importing them all
      // (its files' tests never registered) would otherwise look like a smaller, passing run
      `let imported = 0;`,
      `process.on('exit', () => writeFileSync(${JSON.stringify(tally)}, String(imported)));`,
      ...targets.map(
        (t, j) =>
          `describe(${JSON.stringify(group[j])}, async () => {\n  await import(${JSON.stringify(pathToFileURL(t).href)});\n  imported += 1;\n});`,
      ),
      '',
    ].join('\n'),
  );
  return entry;
});
// A process whose tests never settle (a test awaiting what never comes, or a failed test's open handles keeping the
// process alive) fails after --test-timeout instead of holding the run: node applies it to each process (a group of
// files) as a whole; 600 s is four times the slowest group's time on the slowest machine seen. --test-force-exit
// ends a process once its last after() hook has run: every file's suite is registered before the first test starts,
// and what is left would only hold it (PGlite's statistics timer keeps a process that used it alive ten seconds after
// its last query).
const guards = [`--test-timeout=${process.env.TEST_TIMEOUT_MS ?? 600_000}`, '--test-force-exit'];
const result = spawnSync(process.execPath, [...runner, '--test', `--test-concurrency=${concurrency}`, ...guards, ...reporter, ...entries], {
  stdio: 'inherit',
  // the build's directory: tests start the service and the CLIs from it too (test/helpers/ts-entry.ts)
  env: build ? { ...env, TEST_BUILD_DIR: build.dir } : env,
});
let status = result.status ?? 1;
const unimported = tallies.flatMap(({ tally, files: group }) => {
  const imported = existsSync(tally) ? Number(readFileSync(tally, 'utf8')) : 0;
  return group.slice(imported);
});
if (unimported.length > 0) {
  console.error(
    `${unimported.length} test files did not run: their process ended or was killed before importing them: ${unimported.join(', ')}`,
  );
  status = status || 1;
}
if (build) build.remove();
else rmSync(groupDir, { recursive: true, force: true });

if (process.env.TEST_REDIS_URL && tier !== 'fast') {
  if (!(await redisLeftovers(process.env.TEST_REDIS_URL))) status = status || 1;
}
console.error(
  `${tier === 'all' ? 'tests' : `${tier} tests`}: ${files.length} files in ${entries.length} processes, ${((Date.now() - started) / 1000).toFixed(1)} s (${concurrency} at a time)`,
);
process.exit(status);

/**
 * The processes of the run, as lists of files: `count` groups dealt round-robin from the sorted list (so each
 * group gets a share of every folder), or one file per process under TEST_ISOLATE=1.
 */
function groupFiles(list, count) {
  if (process.env.TEST_ISOLATE === '1') return list.map((f) => [f]);
  const groups = Array.from({ length: Math.max(1, count) }, () => []);
  list.forEach((f, i) => groups[i % groups.length].push(f));
  return groups.filter((g) => g.length > 0);
}

/**
 * Keys under test:<run id> without a TTL mean a test app did not delete its prefix: this fails the run (and
 * removes them).
 * Keys without a TTL under test: that nobody touched for an hour are what earlier runs left; they are removed.
 */
async function redisLeftovers(url) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  const mine = [];
  let stale = 0;
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', 'test:*', 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        if ((await redis.ttl(key)) !== -1) continue;
        if (key.startsWith(`test:${runId}.`)) {
          mine.push(key);
          await redis.unlink(key);
        } else if (Number(await redis.object('IDLETIME', key).catch(() => 0)) > 3600) stale += await redis.unlink(key);
      }
    } while (cursor !== '0');
  } catch (err) {
    console.error(`redis check failed: ${err.message}`);
    return false;
  } finally {
    redis.disconnect();
  }
  if (stale) console.error(`redis: removed ${stale} keys without a TTL that earlier runs left under test:`);
  if (mine.length) {
    console.error(`redis: this run left ${mine.length} keys without a TTL, e.g. ${mine.slice(0, 5).join(', ')}`);
    return false;
  }
  return true;
}
