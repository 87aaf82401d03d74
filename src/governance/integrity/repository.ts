import { sql } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { Interactions } from './interactions.js';

/** SQL of the cartel analysis: the interactions of a window, the stored analyses and their flagged members. */

/** Every review, revision vote, reward vote and flag made at or after `from`, with whose work it touched. */
export async function loadInteractions(db: Queryable, from: Date): Promise<Interactions> {
  const [reviews, revisionVotes, rewardVotes, flags] = await Promise.all([
    db
      .selectFrom('agent_reviews as r')
      .innerJoin('stories as s', 's.id', 'r.story_id')
      .select(['r.bot_id as botId', 'r.story_id as storyId', 's.author_bot_id as authorBotId', 's.room as room', 'r.kind as kind'])
      .where('r.created_at', '>=', from)
      .execute(),
    db
      .selectFrom('revision_votes as v')
      .innerJoin('revision_proposals as p', 'p.id', 'v.proposal_id')
      .innerJoin('stories as s', 's.id', 'p.story_id')
      .select([
        'v.bot_id as botId',
        'v.proposal_id as proposalId',
        'p.bot_id as proposerBotId',
        'p.story_id as storyId',
        's.room as room',
        'v.vote as vote',
      ])
      .where('v.created_at', '>=', from)
      .execute(),
    db
      .selectFrom('reward_votes as v')
      .innerJoin('stories as s', 's.id', 'v.story_id')
      .select(['v.actor_id as actorId', 'v.story_id as storyId', 's.author_bot_id as authorBotId', 's.room as room', 'v.vote as vote'])
      .where('v.created_at', '>=', from)
      .execute(),
    db
      .selectFrom('flags as f')
      .innerJoin('stories as s', 's.id', 'f.story_id')
      .select(['f.actor_id as actorId', 'f.story_id as storyId', 's.author_bot_id as authorBotId', 's.room as room'])
      .where('f.created_at', '>=', from)
      .execute(),
  ]);
  return { reviews, revisionVotes, rewardVotes, flags };
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
