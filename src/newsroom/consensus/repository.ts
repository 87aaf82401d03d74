import { sql } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { clusterMatesInLatestAnalysis } from '../../governance/integrity/service.js';

/** SQL of the consensus: the tallies of a packet and the stored snapshot. */

export interface Tallies {
  attCount: number;
  attWeight: number;
  objCount: number;
  objWeight: number;
  flags: { count: number; low: number; medium: number; high: number };
  votes: { count: number; up: number; down: number; weightUp: number; weightDown: number };
}

/** Review tallies of one packet, and flag and reward-vote tallies of the story (they survive revisions). */
export async function tallyStory(db: Queryable<NewsroomTables>, storyId: string, packetHash: string): Promise<Tallies> {
  const [reviews, flags, votes] = await Promise.all([
    db
      .selectFrom('agent_reviews')
      .select(['kind', sql<number>`count(*)::int`.as('n'), sql<number>`coalesce(sum(weight), 0)::int`.as('w')])
      .where('story_id', '=', storyId)
      .where('packet_hash', '=', packetHash)
      .groupBy('kind')
      .execute(),
    db
      .selectFrom('flags')
      .select(['severity', sql<number>`count(*)::int`.as('n')])
      .where('story_id', '=', storyId)
      .groupBy('severity')
      .execute(),
    db
      .selectFrom('reward_votes')
      .select(['vote', sql<number>`count(*)::int`.as('n'), sql<number>`coalesce(sum(weight), 0)::int`.as('w')])
      .where('story_id', '=', storyId)
      .groupBy('vote')
      .execute(),
  ]);
  const review = (kind: string) => reviews.find((r) => r.kind === kind) ?? { n: 0, w: 0 };
  const flag = (severity: string) => flags.find((f) => f.severity === severity)?.n ?? 0;
  const vote = (v: string) => votes.find((r) => r.vote === v) ?? { n: 0, w: 0 };
  return {
    attCount: review('ATTESTATION').n,
    attWeight: review('ATTESTATION').w,
    objCount: review('OBJECTION').n,
    objWeight: review('OBJECTION').w,
    flags: { count: flag('LOW') + flag('MEDIUM') + flag('HIGH'), low: flag('LOW'), medium: flag('MEDIUM'), high: flag('HIGH') },
    votes: {
      count: vote('UP').n + vote('DOWN').n,
      up: vote('UP').n,
      down: vote('DOWN').n,
      weightUp: vote('UP').w,
      weightDown: vote('DOWN').w,
    },
  };
}

export async function saveSnapshot(
  tx: Tx<NewsroomTables>,
  storyId: string,
  packetHash: string,
  snapshot: unknown,
  at: Date,
): Promise<void> {
  const json = JSON.stringify(snapshot);
  await tx
    .insertInto('consensus_snapshots')
    .values({ story_id: storyId, packet_hash: packetHash, snapshot: json, computed_at: at })
    .onConflict((oc) => oc.column('story_id').doUpdateSet({ packet_hash: packetHash, snapshot: json, computed_at: at }))
    .execute();
}

/**
 * Attestations on a packet by bots that share a flagged cluster of the latest analysis with the story's
 * author: the attestations the cluster discount applies to. One statement over the newsroom's agent_reviews that
 * embeds governance/integrity's SQL of the author's cluster mates (`clusterMatesInLatestAnalysis`): the discount
 * is read inside the consensus transaction, on every recompute.
 */
export async function attestationsInsideAuthorCluster(
  db: Queryable<NewsroomTables>,
  story: { id: string; packetHash: string; authorBotId: string },
): Promise<{ analysisId: string | null; count: number; weight: number }> {
  const mates = clusterMatesInLatestAnalysis(story.authorBotId);
  const result = await sql<{ analysis_id: string | null; n: number; w: number }>`
    SELECT ${mates.analysisId} AS analysis_id, count(r.id)::int AS n, coalesce(sum(r.weight), 0)::int AS w
    FROM agent_reviews r
    WHERE r.story_id = ${story.id} AND r.packet_hash = ${story.packetHash} AND r.kind = 'ATTESTATION'
      AND r.bot_id IN ${mates.botIds}`.execute(db);
  const row = result.rows[0];
  return { analysisId: row?.analysis_id ?? null, count: row?.n ?? 0, weight: row?.w ?? 0 };
}
