import { spawnSync } from 'node:child_process';
import { crashRound, prepareCrashWorld, type CrashRound } from './crash.js';
import { startPrivatePostgres, startPrivateRedis, type PrivatePostgres, type PrivateRedis } from './harness.js';
import { outage, type OutageResult } from './outage.js';

/**
 * `npm run chaos`: the long reliability runs, on a PRIVATE PostgreSQL and Redis started here on their own
 * ports (the machine's shared servers are never stopped):
 *   1. crash safety: CHAOS_ROUNDS (default 20) rounds of SIGKILL at a random point under signed-write load;
 *   2. outages: PostgreSQL stopped and started again under load, then Redis, without restarting the service.
 * The service runs from dist/ (built here first unless CHAOS_SKIP_BUILD=1). Prints a summary with numbers;
 * exits 1 when any check failed. The cheap parts run in `npm test` too (test/chaos/*.test.ts).
 */

const print = (text: string) => process.stdout.write(`${text}\n`);
const rounds = Number(process.env.CHAOS_ROUNDS ?? 20);
const started = Date.now();
const seconds = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(2)} s`);

if (process.env.CHAOS_SKIP_BUILD !== '1') {
  print('building the service (npm run build) ...');
  const built = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
process.env.CHAOS_SERVICE_ENTRY ??= 'dist';

const pg = await startPrivatePostgres();
const redis = await startPrivateRedis();
if (typeof pg === 'string' || typeof redis === 'string') {
  console.error(`cannot run: ${typeof pg === 'string' ? pg : ''} ${typeof redis === 'string' ? redis : ''}`);
  if (typeof pg !== 'string') pg.destroy();
  if (typeof redis !== 'string') await redis.destroy();
  process.exit(2);
}

let failed: boolean;
try {
  failed = await main(pg, redis);
} finally {
  pg.destroy();
  await redis.destroy();
}
print(`\nnpm run chaos: ${failed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(failed ? 1 : 0);

async function main(pg: PrivatePostgres, redis: PrivateRedis): Promise<boolean> {
  const world = await prepareCrashWorld(pg.url, redis.url, 'chaos:');
  try {
    print(`\n== crash safety: ${rounds} rounds of kill -9 under signed-write load (6 writers) ==`);
    print('round  kill at  accepted (corrections)  no answer (committed)  other answers  restart  deliveries drained  resent  problems');
    const results: CrashRound[] = [];
    for (let round = 1; round <= rounds; round++) {
      const r = await crashRound(world, round);
      results.push(r);
      print(
        [
          String(round).padStart(5),
          `${r.killAfterMs} ms`.padStart(8),
          `${r.accepted} (${r.acceptedCorrections})`.padStart(23),
          `${r.unanswered} (${r.unansweredCommitted})`.padStart(22),
          (JSON.stringify(r.otherStatuses) === '{}' ? '-' : JSON.stringify(r.otherStatuses)).padStart(14),
          seconds(r.restartMs).padStart(8),
          seconds(r.deliveriesDrainedMs).padStart(19),
          String(r.duplicateDeliveries).padStart(7),
          r.problems.length ? r.problems.join('; ') : 'none',
        ].join('  '),
      );
    }
    const sum = (f: (r: CrashRound) => number) => results.reduce((n, r) => n + f(r), 0);
    const restarts = results.map((r) => r.restartMs).sort((a, b) => a - b);
    const crashProblems = sum((r) => r.problems.length);
    print(
      `crash: ${results.length} kills; ${sum((r) => r.accepted)} writes accepted (${sum((r) => r.acceptedCorrections)} corrections with ` +
        `ledger, outbox and audit rows), every one in the database once; ${sum((r) => r.unanswered)} in flight at the kill, ` +
        `${sum((r) => r.unansweredCommitted)} of them committed (each once); ${crashProblems} problems; restart to ready ` +
        `median ${seconds(restarts[Math.floor(restarts.length / 2)] ?? 0)}, max ${seconds(restarts[restarts.length - 1] ?? 0)}; ` +
        `${sum((r) => r.duplicateDeliveries)} webhook events delivered twice (killed mid-delivery, at least once by design)`,
    );

    print('\n== outages: each server stopped for 6 s under load (2 writers, 2 readers, /readyz every 100 ms) ==');
    const outages: OutageResult[] = [];
    const storyId = world.stories[0]!;
    outages.push(
      await outage(world.service, world.database.db, { server: 'postgres', stop: () => pg.stop('fast'), start: () => pg.start() }, storyId),
    );
    outages.push(
      await outage(world.service, world.database.db, { server: 'redis', stop: () => redis.stop(), start: () => redis.start() }, storyId),
    );
    for (const o of outages) {
      print(
        `${o.server} down: signed writes ${JSON.stringify(o.whileDown.writes)}, public reads ${JSON.stringify(o.whileDown.reads)}, ` +
          `/readyz ${JSON.stringify(o.whileDown.readyz)}; back: /readyz 200 after ${seconds(o.readyAfterMs)}, first accepted write ` +
          `after ${seconds(o.writesAfterMs)}; ${o.accepted} writes accepted in all, each in the database once; problems: ` +
          `${o.problems.length ? o.problems.join('; ') : 'none'}`,
      );
    }
    return crashProblems > 0 || outages.some((o) => o.problems.length > 0);
  } finally {
    await world.close();
  }
}
