import { sql } from 'kysely';
import { signHumanRequest } from '../../sdk/index.js';
import type { BenchContext } from './context.js';
import type { BackgroundLoad, PreparedRequest } from './load.js';
import type { Newsroom } from './newsroom.js';

/**
 * Readers' comments written to the kept newsroom database while reads are measured (the `mixed` and `instances`
 * scenarios), and how the database is put back afterwards: backupStories() copies the rows the comments change
 * (the target stories' counters, review state and trending score, their consensus snapshots and the ids of
 * their ledger events) into `bench_restore_<run>_*` tables, and restoreStories() puts them back, deletes the
 * run's comments (actor ids `bench-<run>-...`, and any ledger event they caused) and drops the copies. A run
 * interrupted before that leaves the copies behind; restoreLeftovers() restores from them first.
 */

/** The steady rate of the comments arriving meanwhile. */
export const COMMENTS_PER_SECOND = 20;
const WRITE_CONNECTIONS = 4;
const commentPath = (storyId: string) => `/v1/stories/${storyId}/comments`;

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
const storyColumnRefs = STORY_COLUMNS.map((c) => sql.ref(c));

const backupTables = (runId: string) => ({
  stories: `bench_restore_${runId}_stories`,
  snapshots: `bench_restore_${runId}_snapshots`,
  ledger: `bench_restore_${runId}_ledger`,
});

/** The actor id of every comment this run writes starts with this. */
export const runActorPrefix = (runId: string) => `bench-${runId}-`;

export async function backupStories(newsroom: Newsroom, runId: string, storyIds: readonly string[]): Promise<void> {
  const { db } = newsroom.database;
  const t = backupTables(runId);
  await db.transaction().execute(async (trx) => {
    await sql`create table ${sql.table(t.stories)} as select id, ${sql.join(storyColumnRefs)} from stories where id = any(${[...storyIds]})`.execute(
      trx,
    );
    await sql`create table ${sql.table(t.snapshots)} as select * from consensus_snapshots where story_id = any(${[...storyIds]})`.execute(
      trx,
    );
    await sql`create table ${sql.table(t.ledger)} as select id from ledger_events where story_id = any(${[...storyIds]})`.execute(trx);
  });
}

/** Puts the rows saved by backupStories() back and deletes what the run's comments added. Returns what it undid. */
export async function restoreStories(
  newsroom: Newsroom,
  runId: string,
): Promise<{ comments: number; ledgerEvents: number; stories: number }> {
  const { db } = newsroom.database;
  const t = backupTables(runId);
  const mine = `${runActorPrefix(runId)}%`;
  const undone = await db.transaction().execute(async (trx) => {
    // comments.parent_id has no index: with its foreign key checked, each deleted comment scans the whole
    // comments table for replies (28 s for 1,716 comments among 30,000; minutes at scale 1). Nobody replies
    // to the run's comments: one scan says so, and then the check is switched off for this transaction.
    const { rows: replies } = await sql<{ n: number }>`
      select count(*)::int as n from comments r join comments c on c.id = r.parent_id
      where c.actor_id like ${mine} and r.actor_id not like ${mine}`.execute(trx);
    if ((replies[0]?.n ?? 0) > 0) throw new Error(`${replies[0]!.n} comments of others reply to the run's comments: not deleting them`);
    const { rows: role } = await sql<{ superuser: boolean }>`select current_setting('is_superuser') = 'on' as superuser`.execute(trx);
    if (role[0]?.superuser) await sql`set local session_replication_role = replica`.execute(trx);
    const comments = await sql`delete from comments where actor_id like ${mine}`.execute(trx);
    if (role[0]?.superuser) await sql`set local session_replication_role = origin`.execute(trx);
    // Only the stories the run changed: rewriting all of them left a dead version of every target story (and
    // of its snapshot) per run, which a server without autovacuum keeps.
    const { rows: changed } = await sql<{ id: string }>`
      update stories s set ${sql.join(storyColumnRefs.map((c) => sql`${c} = b.${c}`))}
      from ${sql.table(t.stories)} b
      where s.id = b.id and (${sql.join(storyColumnRefs.map((c) => sql`s.${c}`))}) is distinct from (${sql.join(storyColumnRefs.map((c) => sql`b.${c}`))})
      returning s.id`.execute(trx);
    const changedIds = changed.map((r) => r.id);
    await sql`delete from consensus_snapshots where story_id = any(${changedIds})`.execute(trx);
    await sql`insert into consensus_snapshots select * from ${sql.table(t.snapshots)} where story_id = any(${changedIds})`.execute(trx);
    const ledger = await sql`
      delete from ledger_events where story_id in (select id from ${sql.table(t.stories)})
        and id not in (select id from ${sql.table(t.ledger)})`.execute(trx);
    await sql`drop table ${sql.table(t.stories)}, ${sql.table(t.snapshots)}, ${sql.table(t.ledger)}`.execute(trx);
    return {
      comments: Number(comments.numAffectedRows ?? 0),
      ledgerEvents: Number(ledger.numAffectedRows ?? 0),
      stories: changedIds.length,
    };
  });
  // The dead rows the run and the restore left, cleared now so that every run starts from the same tables
  // (the development machines' PostgreSQL runs without autovacuum). VACUUM cannot run in a transaction.
  await sql`vacuum (analyze) stories, consensus_snapshots, comments, ledger_events`.execute(db);
  return undone;
}

/** Restores what interrupted runs left (their backup tables are still there). */
export async function restoreLeftovers(newsroom: Newsroom): Promise<string[]> {
  const { rows } = await sql<{
    tablename: string;
  }>`select tablename from pg_tables where tablename like 'bench\\_restore\\_%\\_stories'`.execute(newsroom.database.db);
  const notes: string[] = [];
  for (const { tablename } of rows) {
    const runId = /^bench_restore_([a-z0-9]+)_stories$/.exec(tablename)?.[1];
    if (!runId) continue;
    const undone = await restoreStories(newsroom, runId);
    notes.push(
      `restored what the interrupted run ${runId} wrote: ${undone.comments} comments, ${undone.ledgerEvents} ledger events, ${undone.stories} stories`,
    );
  }
  return notes;
}

/**
 * Target stories whose comment count did not rise by exactly the comments this run left on them (a lost or a
 * doubled update of the counter), as `<id>: +<rise> for <comments>`. Before restoreStories().
 */
export async function commentCountDrift(newsroom: Newsroom, runId: string): Promise<string[]> {
  const t = backupTables(runId);
  const { rows } = await sql<{ id: string; rise: number; comments: number }>`
    select s.id, s.comment_count - b.comment_count as rise,
      (select count(*)::int from comments c where c.story_id = s.id and c.actor_id like ${`${runActorPrefix(runId)}%`}) as comments
    from stories s join ${sql.table(t.stories)} b on b.id = s.id`.execute(newsroom.database.db);
  return rows.filter((r) => r.rise !== r.comments).map((r) => `${r.id}: +${r.rise} for ${r.comments}`);
}

/** One human-signed comment by `actorId` on a story, as sent by a reader's front end. */
export function signedComment(ctx: BenchContext, storyId: string, actorId: string, text: string): PreparedRequest & { path: string } {
  const path = commentPath(storyId);
  const body = { actorId, verified: false, body: text };
  return { path, headers: signHumanRequest({ secret: ctx.humanSecret, method: 'POST', path, body }), body: JSON.stringify(body) };
}

/**
 * Comments at COMMENTS_PER_SECOND on `storyIds` in turn, each by its own reader `bench-<run>-<tag>-<n>` (so
 * the comments of a tag can be counted apart), signed between slices like every single-use request.
 */
export function commentBackground(ctx: BenchContext, storyIds: readonly string[], tag: string): BackgroundLoad {
  return {
    label: 'POST /v1/stories/:id/comments',
    method: 'POST',
    rate: COMMENTS_PER_SECOND,
    connections: WRITE_CONNECTIONS,
    expectStatus: 202,
    feed: (count, first) =>
      Array.from({ length: count }, (_, i) => {
        const n = first + i;
        return signedComment(
          ctx,
          storyIds[n % storyIds.length]!,
          `${runActorPrefix(ctx.runId)}${tag}-${n}`,
          `Bench comment ${n}: the figures in the second paragraph match the cited report.`,
        );
      }),
  };
}

/** How many comments readers `bench-<run>-<tag>-*` left, and how many distinct readers they are (one comment each). */
export async function countComments(newsroom: Newsroom, runId: string, tag: string): Promise<{ rows: number; actors: number }> {
  const { rows } = await sql<{ rows: number; actors: number }>`
    select count(*)::int as rows, count(distinct actor_id)::int as actors from comments
    where actor_id like ${`${runActorPrefix(runId)}${tag}-%`}`.execute(newsroom.database.db);
  return rows[0] ?? { rows: 0, actors: 0 };
}
