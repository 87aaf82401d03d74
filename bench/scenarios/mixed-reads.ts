import { sql } from 'kysely';
import {
  backupStories,
  commentBackground,
  COMMENTS_PER_SECOND,
  restoreLeftovers,
  restoreStories,
  runActorPrefix,
} from '../lib/comment-writes.js';
import type { BackgroundLoad, LabeledPath } from '../lib/load.js';
import type { Newsroom } from '../lib/newsroom.js';
import { feedFirstRead, readScenario, storyDetailRead, type ReadDefinition } from './newsroom-reads.js';
import type { Scenario } from './types.js';

/**
 * Reads while the newsroom is being written: the feed's first page, and story detail, on the seeded newsroom
 * database (as the `feed` and `story` rows), while human-signed comments arrive at a steady COMMENTS_PER_SECOND
 * on the stories being read. Each comment is a real story write (withTransaction: story row lock, insert,
 * comment count, consensus recomputed), so each one moves the list generation and its story's generation on,
 * and every cached feed body is invalidated COMMENTS_PER_SECOND times a second.
 *
 * The writes go to the service side only, on their own connections at a steady rate; they are
 * signed between slices like every single-use request, answered 202 (else the row is INVALID), and are not
 * counted in the req/s or latency of the reads. The baseline is the static body of each URL, as for `feed`
 * and `story`, so the ratio says how much of a bare route's throughput the reads keep while the data changes.
 *
 * The newsroom database is kept between runs and the other scenarios only read it: setup() copies the rows
 * the comments change (the target stories' counters, review state and trending score, their consensus
 * snapshots and the ids of their ledger events) into `bench_restore_<run>_*` tables, and verify() puts them
 * back, deletes the run's comments (and any ledger event they caused) and drops the copies. A run that was
 * interrupted before verify() leaves the copies behind; the next mixed run restores from them first.
 */

interface MixedDefinition {
  read: ReadDefinition;
  name: string;
  title: string;
  /** The stories the comments go to, given the URLs the reads cycle through. */
  targets(newsroom: Newsroom, paths: readonly LabeledPath[]): Promise<string[]>;
  describeTargets: string;
}

function mixedScenario(def: MixedDefinition): Scenario {
  let paths: readonly LabeledPath[] = [];
  // Capture the URLs the read scenario picked (its requests() runs in its setup()).
  const base = readScenario({
    ...def.read,
    name: def.name,
    title: def.title,
    async requests(newsroom, ctx) {
      const picked = await def.read.requests(newsroom, ctx);
      paths = picked.paths;
      return picked;
    },
  });
  let background: BackgroundLoad | undefined;
  let targets: string[] = [];
  return {
    ...base,
    groups: ['mixed'],
    async setup(ctx) {
      const newsroom = await ctx.newsroom();
      const leftovers = await restoreLeftovers(newsroom);
      const notes = (await base.setup?.(ctx)) ?? [];
      targets = await def.targets(newsroom, paths);
      if (targets.length === 0) throw new Error(`${def.name}: no stories to comment on`);
      await backupStories(newsroom, ctx.runId, targets);
      background = commentBackground(ctx, targets, 'reader');
      return [
        ...leftovers,
        ...notes,
        `meanwhile, on the service side only: ${COMMENTS_PER_SECOND} human-signed comments per second (${background.connections} connections, steady rate) on ${def.describeTargets} (${targets.length} stories, in turn); the rows they change are restored afterwards`,
      ];
    },
    subject(ctx) {
      const side = base.subject(ctx);
      if (!background) throw new Error(`${def.name}: setup() has not run`);
      return { ...side, load: { ...side.load, background } };
    },
    // Every comment answered 202 left its row; then the database goes back to what the other scenarios read.
    async verify(ctx, outcome) {
      const newsroom = await ctx.newsroom();
      const problems: string[] = [];
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from comments where actor_id like ${`${runActorPrefix(ctx.runId)}%`}`.execute(newsroom.database.db);
      const written = rows[0]?.n ?? 0;
      const accepted = outcome.background.subject?.accepted ?? 0;
      if (written < accepted || written > accepted + (outcome.background.subject?.maxUnanswered ?? 0))
        problems.push(`${accepted} comments answered 202 but ${written} were inserted`);
      const undone = await restoreStories(newsroom, ctx.runId);
      if (undone.comments !== written)
        problems.push(`restoring the newsroom database deleted ${undone.comments} comments, expected ${written}`);
      return problems;
    },
  };
}

export const mixedFeed = mixedScenario({
  read: feedFirstRead,
  name: 'mixed-feed',
  title: `GET /v1/feed?mode=trending (first page) while ${COMMENTS_PER_SECOND} comments/s arrive`,
  describeTargets: "the feed's first-page stories",
  async targets(newsroom) {
    const res = await newsroom.get('/v1/feed?mode=trending');
    return (JSON.parse(res.body) as { items: { id: string }[] }).items.map((i) => i.id);
  },
});

export const mixedStory = mixedScenario({
  read: storyDetailRead,
  name: 'mixed-story',
  title: `GET /v1/stories/:id (random stories) while ${COMMENTS_PER_SECOND} comments/s arrive`,
  describeTargets: 'the stories being read',
  async targets(_newsroom, paths) {
    return [...new Set(paths.map((p) => decodeURIComponent(p.path.slice('/v1/stories/'.length))))];
  },
});

export const mixedReads: readonly Scenario[] = [mixedFeed, mixedStory];
