import { sql } from 'kysely';
import { signHumanRequest } from '../../sdk/index.js';
import type { BenchContext } from '../lib/context.js';
import type { BackgroundLoad, LabeledPath, PreparedRequest } from '../lib/load.js';
import type { Newsroom } from '../lib/newsroom.js';
import { feedFirstRead, readScenario, storyDetailRead, type ReadDefinition } from './newsroom-reads.js';
import type { Scenario } from './types.js';

/**
 * Reads while the newsroom is being written: the feed's first page, and story detail, on the seeded newsroom
 * database (as the `feed` and `story` rows), while human-signed comments arrive at a steady WRITES_PER_SECOND
 * on the stories being read. Each comment is a real story write (withTransaction: story row lock, insert,
 * comment count, consensus recomputed), so each one moves the list generation and its story's generation on,
 * and every cached feed body is invalidated WRITES_PER_SECOND times a second.
 *
 * The writes go to the service side only, on their own connections, at autocannon's `overallRate`; they are
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

const WRITES_PER_SECOND = 20;
const WRITE_CONNECTIONS = 4;
const COMMENT_PATH = (storyId: string) => `/v1/stories/${storyId}/comments`;

/** The columns a comment changes on its story (the comment count, and everything recomputeConsensus sets). */
const STORY_COLUMNS = [
  'comment_count',
  'review_status',
  'publication_stage',
  'graduated_at',
  'attestation_count',
  'objection_count',
  'flag_count',
  'reward_vote_count',
  'trending_score',
  'updated_at',
] as const;

const backupTables = (runId: string) => ({
  stories: `bench_restore_${runId}_stories`,
  snapshots: `bench_restore_${runId}_snapshots`,
  ledger: `bench_restore_${runId}_ledger`,
});

async function backup(newsroom: Newsroom, runId: string, storyIds: readonly string[]): Promise<void> {
  const { db } = newsroom.database;
  const t = backupTables(runId);
  await db.transaction().execute(async (trx) => {
    await sql`create table ${sql.table(t.stories)} as select id, ${sql.join(STORY_COLUMNS.map((c) => sql.ref(c)))} from stories where id = any(${[...storyIds]})`.execute(
      trx,
    );
    await sql`create table ${sql.table(t.snapshots)} as select * from consensus_snapshots where story_id = any(${[...storyIds]})`.execute(
      trx,
    );
    await sql`create table ${sql.table(t.ledger)} as select id from ledger_events where story_id = any(${[...storyIds]})`.execute(trx);
  });
}

/** Puts the rows saved by backup() back and deletes what the run's comments added. Returns what it undid. */
async function restore(newsroom: Newsroom, runId: string): Promise<{ comments: number; ledgerEvents: number; stories: number }> {
  const { db } = newsroom.database;
  const t = backupTables(runId);
  return db.transaction().execute(async (trx) => {
    const comments = await sql`delete from comments where actor_id like ${`bench-${runId}-%`}`.execute(trx);
    const stories = await sql`
      update stories s set ${sql.join(STORY_COLUMNS.map((c) => sql`${sql.ref(c)} = b.${sql.ref(c)}`))}
      from ${sql.table(t.stories)} b where s.id = b.id`.execute(trx);
    await sql`delete from consensus_snapshots where story_id in (select id from ${sql.table(t.stories)})`.execute(trx);
    await sql`insert into consensus_snapshots select * from ${sql.table(t.snapshots)}`.execute(trx);
    const ledger = await sql`
      delete from ledger_events where story_id in (select id from ${sql.table(t.stories)})
        and id not in (select id from ${sql.table(t.ledger)})`.execute(trx);
    await sql`drop table ${sql.table(t.stories)}, ${sql.table(t.snapshots)}, ${sql.table(t.ledger)}`.execute(trx);
    return {
      comments: Number(comments.numAffectedRows ?? 0),
      ledgerEvents: Number(ledger.numAffectedRows ?? 0),
      stories: Number(stories.numAffectedRows ?? 0),
    };
  });
}

/** Restores what interrupted mixed runs left (their backup tables are still there). */
async function restoreLeftovers(newsroom: Newsroom): Promise<string[]> {
  const { rows } = await sql<{
    tablename: string;
  }>`select tablename from pg_tables where tablename like 'bench\\_restore\\_%\\_stories'`.execute(newsroom.database.db);
  const notes: string[] = [];
  for (const { tablename } of rows) {
    const runId = /^bench_restore_([a-z0-9]+)_stories$/.exec(tablename)?.[1];
    if (!runId) continue;
    const undone = await restore(newsroom, runId);
    notes.push(
      `restored what the interrupted run ${runId} wrote: ${undone.comments} comments, ${undone.ledgerEvents} ledger events, ${undone.stories} stories`,
    );
  }
  return notes;
}

/** `count` human-signed comments (numbered from `first`), each by its own reader, on `storyIds` in turn. */
function commentRequests(ctx: BenchContext, storyIds: readonly string[], count: number, first: number): PreparedRequest[] {
  const out: PreparedRequest[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const n = first + i;
    const path = COMMENT_PATH(storyIds[n % storyIds.length]!);
    const body = {
      actorId: `bench-${ctx.runId}-reader-${n}`,
      verified: false,
      body: `Bench comment ${n}: the figures in the second paragraph match the cited report.`,
    };
    out[i] = { path, headers: signHumanRequest({ secret: ctx.humanSecret, method: 'POST', path, body }), body: JSON.stringify(body) };
  }
  return out;
}

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
      await backup(newsroom, ctx.runId, targets);
      background = {
        label: 'POST /v1/stories/:id/comments',
        method: 'POST',
        rate: WRITES_PER_SECOND,
        connections: WRITE_CONNECTIONS,
        expectStatus: 202,
        feed: (count, first) => commentRequests(ctx, targets, count, first),
      };
      return [
        ...leftovers,
        ...notes,
        `meanwhile, on the service side only: ${WRITES_PER_SECOND} human-signed comments per second (${WRITE_CONNECTIONS} connections, steady rate) on ${def.describeTargets} (${targets.length} stories, in turn); the rows they change are restored afterwards`,
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
      }>`select count(*)::int as n from comments where actor_id like ${`bench-${ctx.runId}-%`}`.execute(newsroom.database.db);
      const written = rows[0]?.n ?? 0;
      const accepted = outcome.background?.accepted ?? 0;
      if (written < accepted || written > accepted + (outcome.background?.maxUnanswered ?? 0))
        problems.push(`${accepted} comments answered 202 but ${written} were inserted`);
      const undone = await restore(newsroom, ctx.runId);
      if (undone.comments !== written)
        problems.push(`restoring the newsroom database deleted ${undone.comments} comments, expected ${written}`);
      return problems;
    },
  };
}

export const mixedFeed = mixedScenario({
  read: feedFirstRead,
  name: 'mixed-feed',
  title: `GET /v1/feed?mode=trending (first page) while ${WRITES_PER_SECOND} comments/s arrive`,
  describeTargets: "the feed's first-page stories",
  async targets(newsroom) {
    const res = await newsroom.get('/v1/feed?mode=trending');
    return (JSON.parse(res.body) as { items: { id: string }[] }).items.map((i) => i.id);
  },
});

export const mixedStory = mixedScenario({
  read: storyDetailRead,
  name: 'mixed-story',
  title: `GET /v1/stories/:id (random stories) while ${WRITES_PER_SECOND} comments/s arrive`,
  describeTargets: 'the stories being read',
  async targets(_newsroom, paths) {
    return [...new Set(paths.map((p) => decodeURIComponent(p.path.slice('/v1/stories/'.length))))];
  },
});

export const mixedReads: readonly Scenario[] = [mixedFeed, mixedStory];
