import type { GovernanceTables } from '../tables.js';
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { IntegrityFindingActionsTable } from '../rows.js';
import type { Queryable, Tx } from '../../platform/db/database.js';

/** SQL of the cartel analysis: the stored analyses and their flagged members (the window's interactions are the newsroom's: IntegrityInteractions). */

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
export async function insertAnalysis(tx: Tx<GovernanceTables>, a: StoredAnalysis): Promise<void> {
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

/**
 * The latest analysis's flagged-cluster mates of bot `botId` (itself included) as SQL another context's statement
 * embeds: `analysisId` a scalar subquery of the latest analysis's id (null before the first), `botIds` a subquery
 * of bot ids, empty when the bot is in no flagged cluster of it.
 */
export function clusterMatesSql(botId: string): { analysisId: RawBuilder<string | null>; botIds: RawBuilder<unknown> } {
  const latest = sql<string | null>`(SELECT id FROM integrity_analyses ORDER BY seq DESC LIMIT 1)`;
  return {
    analysisId: latest,
    botIds: sql`(SELECT m.member_id FROM integrity_flagged_members a
      JOIN integrity_flagged_members m ON m.analysis_id = a.analysis_id AND m.cluster_id = a.cluster_id AND m.member_kind = 'bot'
      WHERE a.analysis_id = ${latest} AND a.member_kind = 'bot' AND a.member_id = ${botId})`,
  };
}

/** The latest analysis: its id, time and how much it flagged; null before the first. */
export async function latestAnalysis(db: Queryable<GovernanceTables>) {
  return (
    (await db
      .selectFrom('integrity_analyses')
      .select(['id', 'analyzed_at', 'cluster_count', 'member_count'])
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst()) ?? null
  );
}

/** A flagged cluster of an analysis: its id and its number on the analysis's page (1 for the first cluster). */
export interface FlaggedCluster {
  clusterId: string;
  number: number;
}

/** Who an analysis flagged, each with their cluster: bots by bot id, people by actor id and by linked human. */
export interface FlaggedMembers {
  analysisId: string | null;
  bots: Map<string, FlaggedCluster>;
  people: Map<string, FlaggedCluster>;
}

/**
 * The members of the flagged clusters of the latest analysis (or of the one named), as payouts name people,
 * each with its cluster: flagged bots by bot id, flagged actors by actor id and by the linked human
 * actor_bindings binds each to (a linked human bound to actors of two clusters keeps the first cluster). Empty
 * before the first analysis (and after one that flagged nobody). The settlement's cartel hold reads it, and
 * the console's links from a discounted story or a held payout to its finding.
 */
export async function flaggedInAnalysis(db: Queryable<GovernanceTables>, analysisId?: string): Promise<FlaggedMembers> {
  const { rows } = await sql<{
    analysis_id: string;
    member_kind: 'bot' | 'actor';
    member_id: string;
    cluster_id: string;
    number: number;
    linked_human_id: string | null;
  }>`
    WITH chosen AS (
      SELECT id, clusters FROM integrity_analyses
      WHERE ${analysisId ?? null}::text IS NULL OR id = ${analysisId ?? null}
      ORDER BY seq DESC LIMIT 1
    ),
    numbers AS (
      SELECT c.cluster ->> 'id' AS cluster_id, c.number::int AS number
      FROM chosen, jsonb_array_elements(chosen.clusters) WITH ORDINALITY AS c(cluster, number)
    )
    SELECT m.analysis_id, m.member_kind, m.member_id, m.cluster_id, numbers.number, b.linked_human_id
    FROM integrity_flagged_members m
    JOIN chosen ON chosen.id = m.analysis_id
    JOIN numbers ON numbers.cluster_id = m.cluster_id
    LEFT JOIN actor_bindings b ON m.member_kind = 'actor' AND b.actor_id = m.member_id
    ORDER BY numbers.number, m.member_kind, m.member_id`.execute(db);
  const bots = new Map<string, FlaggedCluster>();
  const people = new Map<string, FlaggedCluster>();
  for (const r of rows) {
    const cluster = { clusterId: r.cluster_id, number: r.number };
    if (r.member_kind === 'bot') bots.set(r.member_id, cluster);
    else {
      if (!people.has(r.member_id)) people.set(r.member_id, cluster);
      if (r.linked_human_id && !people.has(r.linked_human_id)) people.set(r.linked_human_id, cluster);
    }
  }
  return { analysisId: rows[0]?.analysis_id ?? null, bots, people };
}

/** The latest analysis whole (its clusters with their evidence), or the one named; null when there is none. */
export async function storedAnalysis(db: Queryable<GovernanceTables>, id?: string) {
  let query = db
    .selectFrom('integrity_analyses')
    .select(['id', 'method', 'parameters', 'window_start', 'analyzed_at', 'analyzed_by', 'clusters', 'summary', 'seq']);
  query = id ? query.where('id', '=', id) : query.orderBy('seq', 'desc').limit(1);
  return (await query.executeTakeFirst()) ?? null;
}

export type FindingActionRow = Omit<Selectable<IntegrityFindingActionsTable>, 'seq'>;

/** Records what an admin did about a finding; false when it is a second dismissal of the same finding. */
export async function insertFindingAction(tx: Tx<GovernanceTables>, row: FindingActionRow): Promise<boolean> {
  const inserted = await tx
    .insertInto('integrity_finding_actions')
    .values(row)
    .onConflict((oc) => oc.columns(['analysis_id', 'cluster_id']).where('action', '=', 'DISMISSED').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** What was done about the findings of an analysis, oldest first. */
export async function findingActions(db: Queryable<GovernanceTables>, analysisId: string): Promise<FindingActionRow[]> {
  return db
    .selectFrom('integrity_finding_actions')
    .select(['id', 'analysis_id', 'cluster_id', 'action', 'member_kind', 'member_id', 'reference', 'reason', 'acted_by', 'acted_at'])
    .where('analysis_id', '=', analysisId)
    .orderBy('seq')
    .execute();
}

/** The flagged clusters of the latest analysis that nobody dismissed: what the console's home counts as waiting. */
export async function undismissedFindings(db: Queryable<GovernanceTables>): Promise<number> {
  const { rows } = await sql<{ count: string }>`
    WITH latest AS (SELECT id, cluster_count FROM integrity_analyses ORDER BY seq DESC LIMIT 1)
    SELECT (latest.cluster_count - (SELECT count(*) FROM integrity_finding_actions d
                                    WHERE d.analysis_id = latest.id AND d.action = 'DISMISSED'))::text AS count
    FROM latest`.execute(db);
  return Number(rows[0]?.count ?? 0);
}
