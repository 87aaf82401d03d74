/**
 * `npm run sim:integrity [-- --seeds 20] [-- --seed 7] [-- --rings] [-- --budget 60]`: builds simulated newsrooms (honest bots and readers,
 * planted collusion of several shapes and sizes: pairs, rings, a camouflaged ring, a reader ring around a bot
 * group; sizes and noise vary with the seed) in an embedded database, runs the service's cartel analysis on
 * each, and prints precision and recall of the planted members and the false positives per seed, then the
 * averages and their distribution. Then (alone with `--rings`) the recall of one planted ring by ring size and
 * stories per member (ring-recall.ts), in memory, stopped after `--budget` seconds (default 60).
 */
import { parseArgs } from 'node:util';
import { createIntegrityService } from '../../src/governance/integrity/service.js';
import { integrityInteractions } from '../../src/composition.js';
import type { HumanActor } from '../../src/platform/auth/types.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { runMigrations } from '../../src/platform/db/migrate.js';
import { createTransactor } from '../../src/platform/db/transaction.js';
import { planNewsroom } from './newsroom-plan.js';
import { ringRecall } from './ring-recall.js';
import { clearNewsroom, seedNewsroom } from './seed-newsroom.js';
import type { DB } from '../../src/tables.js';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '20' },
    seed: { type: 'string' },
    rings: { type: 'boolean', default: false },
    budget: { type: 'string', default: '60' },
  },
});
const seeds = values.seed ? [Number(values.seed)] : Array.from({ length: Number(values.seeds) }, (_, i) => i + 1);
const NOW = Date.parse('2026-11-20T12:00:00.000Z');

/** The recall of one planted ring by its size and activity (5 seeds a cell), within the time budget. */
function printRingRecall() {
  const { lines, honestFlagged, runs, ms } = ringRecall(seeds.slice(0, 5), Number(values.budget) * 1000);
  console.log('');
  console.log('recall of one planted ring (rings found whole / runs), by ring size and stories per member:');
  for (const line of lines) console.log(line);
  console.log(`${runs} analyses in ${(ms / 1000).toFixed(1)} s; honest members flagged over all runs: ${honestFlagged}`);
}

if (values.rings) {
  printRingRecall();
  process.exit(0);
}

const database = await openDatabase<DB>({ databaseUrl: process.env.SIM_DATABASE_URL, dataDir: 'memory://', poolMax: 4 });
await runMigrations(database);
const service = createIntegrityService({
  transactor: createTransactor(database.db, []),
  clock: { now: () => NOW },
  interactions: integrityInteractions,
});
const admin: HumanActor = { kind: 'human', actorId: 'sim-admin', linkedHumanId: 'h_sim', verified: true, tier: 'L3' };

interface Row {
  seed: number;
  bots: number;
  readers: number;
  reviews: number;
  noise: number;
  planted: number;
  flagged: number;
  precision: number;
  recall: number;
  falsePositives: string[];
  honestClusters: number;
  ms: number;
}
const rows: Row[] = [];
console.log(
  '| seed | bots | readers | reviews | noise | planted (shapes) | flagged | precision | recall | false positives | honest clusters | analysis ms |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const seed of seeds) {
  const plan = planNewsroom(seed);
  await clearNewsroom(database.db);
  await seedNewsroom(database.db, plan, NOW);
  const started = performance.now();
  const answer = await service.analyze(admin, { actorId: admin.actorId, verified: true, windowDays: 30 });
  const ms = performance.now() - started;
  const planted = new Set(plan.planted.flatMap((g) => g.members));
  const flagged = new Set(answer.clusters.flatMap((c) => c.members));
  const hits = [...flagged].filter((m) => planted.has(m)).length;
  const row: Row = {
    seed,
    bots: plan.bots.length,
    readers: plan.readers.length,
    reviews: plan.data.reviews.length,
    noise: plan.noise,
    planted: planted.size,
    flagged: flagged.size,
    precision: flagged.size ? hits / flagged.size : 1,
    recall: planted.size ? hits / planted.size : 1,
    falsePositives: [...flagged].filter((m) => !planted.has(m)),
    // a cluster most of whose members are honest
    honestClusters: answer.clusters.filter((c) => c.members.filter((m) => !planted.has(m)).length * 2 > c.size).length,
    ms,
  };
  rows.push(row);
  const shapes = plan.planted.map((g) => `${g.shape} ${g.members.length}`).join(', ');
  console.log(
    `| ${seed} | ${row.bots} | ${row.readers} | ${row.reviews} | ${row.noise.toFixed(2)} | ${row.planted} (${shapes}) | ${row.flagged} | ${row.precision.toFixed(3)} | ${row.recall.toFixed(3)} | ${row.falsePositives.length} | ${row.honestClusters} | ${ms.toFixed(0)} |`,
  );
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const quantiles = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return `min ${s[0]!.toFixed(3)}, p10 ${q(0.1).toFixed(3)}, median ${q(0.5).toFixed(3)}, max ${s[s.length - 1]!.toFixed(3)}`;
};
console.log('');
console.log(`seeds: ${rows.length}`);
console.log(`precision: mean ${mean(rows.map((r) => r.precision)).toFixed(3)} (${quantiles(rows.map((r) => r.precision))})`);
console.log(`recall:    mean ${mean(rows.map((r) => r.recall)).toFixed(3)} (${quantiles(rows.map((r) => r.recall))})`);
console.log(
  `false positives (honest members flagged): total ${rows.reduce((s, r) => s + r.falsePositives.length, 0)}, per seed ${rows.map((r) => r.falsePositives.length).join(' ')}`,
);
console.log(`seeds with an honest cluster flagged: ${rows.filter((r) => r.honestClusters > 0).length} of ${rows.length}`);
await database.close();
printRingRecall();
