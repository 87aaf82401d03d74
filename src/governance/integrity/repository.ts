import { sql } from 'kysely';
import { readThroughCursor } from '../../platform/db/bulk/cursor-read.js';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { FlagRow, ReviewRow, RevisionVoteRow, RewardVoteRow, StoryRow } from './interactions.js';

/** SQL of the cartel analysis: the interactions of a window, the stored analyses and their flagged members. */

/** Rows fetched per round trip while the window streams through a cursor (a batch is turned into acts and dropped). */
const WINDOW_BATCH = 50_000;

/** What reads the window: the rows of each kind, a batch at a time, then the stories they name (acts.ts, ActCollector). */
export interface WindowReader {
  addReviews(rows: readonly ReviewRow[]): void;
  addRevisionVotes(rows: readonly RevisionVoteRow[]): void;
  addRewardVotes(rows: readonly RewardVoteRow[]): void;
  addFlags(rows: readonly FlagRow[]): void;
  storyIds(): readonly string[];
  addStories(rows: readonly StoryRow[]): void;
}

/**
 * Every review, revision vote, reward vote and flag made at or after `from`, then the author and room of every
 * story they name, handed to `reader` a batch at a time through server-side cursors: the window is never held
 * as rows. Must be the first statement of its transaction, which it makes a read-only snapshot, so every read
 * sees the same window. `batchSize` rows are fetched at a time.
 */
export async function readWindow(tx: Tx, from: Date, reader: WindowReader, batchSize = WINDOW_BATCH): Promise<void> {
  await sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`.execute(tx);
  await readThroughCursor(
    tx,
    'integrity_window',
    tx.selectFrom('agent_reviews').select(['bot_id as botId', 'story_id as storyId', 'kind']).where('created_at', '>=', from),
    batchSize,
    (rows) => reader.addReviews(rows),
  );
  await readThroughCursor(
    tx,
    'integrity_window',
    tx
      .selectFrom('revision_votes as v')
      .innerJoin('revision_proposals as p', 'p.id', 'v.proposal_id')
      .select(['v.bot_id as botId', 'v.proposal_id as proposalId', 'p.bot_id as proposerBotId', 'p.story_id as storyId', 'v.vote as vote'])
      .where('v.created_at', '>=', from),
    batchSize,
    (rows) => reader.addRevisionVotes(rows),
  );
  await readThroughCursor(
    tx,
    'integrity_window',
    tx.selectFrom('reward_votes').select(['actor_id as actorId', 'story_id as storyId', 'vote']).where('created_at', '>=', from),
    batchSize,
    (rows) => reader.addRewardVotes(rows),
  );
  await readThroughCursor(
    tx,
    'integrity_window',
    tx.selectFrom('flags').select(['actor_id as actorId', 'story_id as storyId']).where('created_at', '>=', from),
    batchSize,
    (rows) => reader.addFlags(rows),
  );
  const ids = reader.storyIds();
  for (let i = 0; i < ids.length; i += batchSize) {
    const batch = ids.slice(i, i + batchSize);
    reader.addStories(
      await tx
        .selectFrom('stories')
        .select(['id', 'author_bot_id as authorBotId', 'room'])
        .where(sql<boolean>`id = any(${batch}::text[])`)
        .execute(),
    );
  }
}

export interface StoredAnalysis {
  id: string;
  method: string;
  parameters: Record<string, unknown>;
  windowStart: Date;
  analyzedAt: Date;
  analyzedBy: string;
  clusters: { id: string; score: number; members: { id: string; kind: 'bot' | 'actor' }[] }[];
  fullClusters: unknown[];
  summary: Record<string, unknown>;
}

/** Stores an analysis and one row per member of each flagged cluster (it becomes the latest). */
export async function insertAnalysis(tx: Tx, a: StoredAnalysis): Promise<void> {
  const members = a.clusters.flatMap((c) => c.members.map((m) => ({ ...m, clusterId: c.id, score: c.score })));
  await tx
    .insertInto('integrity_analyses')
    .values({
      id: a.id,
      method: a.method,
      parameters: JSON.stringify(a.parameters),
      window_start: a.windowStart,
      analyzed_at: a.analyzedAt,
      analyzed_by: a.analyzedBy,
      clusters: JSON.stringify(a.fullClusters),
      summary: JSON.stringify(a.summary),
      cluster_count: a.clusters.length,
      member_count: members.length,
    })
    .execute();
  if (members.length === 0) return;
  await tx
    .insertInto('integrity_flagged_members')
    .values(members.map((m) => ({ analysis_id: a.id, member_kind: m.kind, member_id: m.id, cluster_id: m.clusterId, score: m.score })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The latest analysis: its id, time and how much it flagged; null before the first. */
export async function latestAnalysis(db: Queryable) {
  return (
    (await db
      .selectFrom('integrity_analyses')
      .select(['id', 'analyzed_at', 'cluster_count', 'member_count'])
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst()) ?? null
  );
}

/**
 * Attestations on a packet by bots that share a flagged cluster of the latest analysis with the story's
 * author: the attestations the cluster discount applies to. The settlement's cartel hold reads the same table
 * (flaggedInLatestAnalysis below).
 */
export async function attestationsInsideAuthorCluster(
  db: Queryable,
  story: { id: string; packetHash: string; authorBotId: string },
): Promise<{ analysisId: string | null; count: number; weight: number }> {
  const result = await sql<{ analysis_id: string | null; n: number; w: number }>`
    WITH latest AS (SELECT id FROM integrity_analyses ORDER BY seq DESC LIMIT 1),
    author_clusters AS (
      SELECT m.analysis_id, m.cluster_id FROM integrity_flagged_members m, latest
      WHERE m.analysis_id = latest.id AND m.member_kind = 'bot' AND m.member_id = ${story.authorBotId}
    )
    SELECT (SELECT id FROM latest) AS analysis_id, count(r.id)::int AS n, coalesce(sum(r.weight), 0)::int AS w
    FROM agent_reviews r
    JOIN integrity_flagged_members m ON m.member_kind = 'bot' AND m.member_id = r.bot_id
    JOIN author_clusters a ON a.analysis_id = m.analysis_id AND a.cluster_id = m.cluster_id
    WHERE r.story_id = ${story.id} AND r.packet_hash = ${story.packetHash} AND r.kind = 'ATTESTATION'`.execute(db);
  const row = result.rows[0];
  return { analysisId: row?.analysis_id ?? null, count: row?.n ?? 0, weight: row?.w ?? 0 };
}

/**
 * The members of the flagged clusters of the latest analysis, as payouts name people: flagged bots by bot id,
 * flagged actors by actor id and by the linked human actor_bindings binds each to. Empty before the first
 * analysis (and after one that flagged nobody). The settlement's cartel hold reads it.
 */
export async function flaggedInLatestAnalysis(
  db: Queryable,
): Promise<{ analysisId: string | null; bots: Set<string>; people: Set<string> }> {
  const { rows } = await sql<{ analysis_id: string; member_kind: 'bot' | 'actor'; member_id: string; linked_human_id: string | null }>`
    WITH latest AS (SELECT id FROM integrity_analyses ORDER BY seq DESC LIMIT 1)
    SELECT m.analysis_id, m.member_kind, m.member_id, b.linked_human_id
    FROM integrity_flagged_members m
    JOIN latest ON latest.id = m.analysis_id
    LEFT JOIN actor_bindings b ON m.member_kind = 'actor' AND b.actor_id = m.member_id`.execute(db);
  const bots = new Set<string>();
  const people = new Set<string>();
  for (const r of rows) {
    if (r.member_kind === 'bot') bots.add(r.member_id);
    else {
      people.add(r.member_id);
      if (r.linked_human_id) people.add(r.linked_human_id);
    }
  }
  return { analysisId: rows[0]?.analysis_id ?? null, bots, people };
}
