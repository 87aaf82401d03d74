import { analyzeCartels, DEFAULT_PARAMETERS } from '../../src/governance/integrity/cartel-analysis.js';
import { planNewsroom } from './newsroom-plan.js';

/**
 * Recall of one planted ring by its size and its activity: a ring of `size` bots, each writing `stories`
 * stories in the window and attesting every story of every other member and nothing else, planted into a
 * simulated newsroom (newsroom-plan.ts, its own planted groups left in). A ring counts as found when every member
 * is flagged, in one cluster with no honest member. Analyses run in memory (the rows held whole), so the table
 * takes seconds; `budgetMs` stops it early (the cells not reached print as "–").
 */
export const RING_SIZES = [3, 4, 6, 8] as const;
export const ACTIVITY = [1, 2, 3, 5] as const;

export function ringRecall(seeds: readonly number[], budgetMs: number) {
  const started = performance.now();
  const cells = new Map<string, { found: number; runs: number; honestFlagged: number }>();
  outer: for (const size of RING_SIZES)
    for (const stories of ACTIVITY)
      for (const seed of seeds) {
        if (performance.now() - started > budgetMs) break outer;
        const plan = planNewsroom(seed);
        const honest = new Set([...plan.bots, ...plan.readers]);
        for (const g of plan.planted) for (const m of g.members) honest.delete(m);
        const room = plan.stories[0]!.room;
        const ring = Array.from({ length: size }, (_, i) => `bot_ring_${i}`);
        const ringStories = ring.flatMap((author) =>
          Array.from({ length: stories }, (_, k) => ({ id: `st_ring_${author}_${k}`, authorBotId: author, room })),
        );
        const reviews = [...plan.data.reviews];
        for (const bot of ring)
          for (const story of ringStories)
            if (story.authorBotId !== bot)
              reviews.push({ botId: bot, storyId: story.id, authorBotId: story.authorBotId, room, kind: 'ATTESTATION' });
        const { clusters } = analyzeCartels({ ...plan.data, reviews }, DEFAULT_PARAMETERS);
        const withRing = clusters.filter((c) => c.members.some((m) => ring.includes(m)));
        const found = withRing.length === 1 && ring.every((m) => withRing[0]!.members.includes(m));
        const cell = cells.get(`${size}:${stories}`) ?? { found: 0, runs: 0, honestFlagged: 0 };
        cell.runs++;
        if (found) cell.found++;
        cell.honestFlagged += clusters.flatMap((c) => c.members).filter((m) => honest.has(m)).length;
        cells.set(`${size}:${stories}`, cell);
      }
  const lines = [
    `| ring size | ${ACTIVITY.map((s) => `${s} ${s === 1 ? 'story' : 'stories'} each`).join(' | ')} |`,
    `|---|${ACTIVITY.map(() => '---').join('|')}|`,
    ...RING_SIZES.map((size) => {
      const row = ACTIVITY.map((stories) => {
        const cell = cells.get(`${size}:${stories}`);
        return cell ? `${cell.found}/${cell.runs}` : '–';
      });
      return `| ${size} | ${row.join(' | ')} |`;
    }),
  ];
  const honestFlagged = [...cells.values()].reduce((s, c) => s + c.honestFlagged, 0);
  const runs = [...cells.values()].reduce((s, c) => s + c.runs, 0);
  return { lines, honestFlagged, runs, ms: performance.now() - started };
}
