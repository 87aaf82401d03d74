import { sql } from 'kysely';
import type { Db, Tx } from '../../platform/db/database.js';
import type { TxEvents } from '../../platform/db/transaction.js';
import type { ReviewStatus, StoryState } from '../../platform/db/schema.js';
import { readParameters } from '../governance/parameters.js';
import { deriveReviewStatus } from './review-status.js';
import { consumeHumanAction, hasOpenHumanAction } from '../identity/human-actions.js';
import { recordLedgerEvent } from '../ledger/record.js';
import { bucketForState, storyState, trendingScore } from '../stories/story-state.js';
import type { LockedStory } from './story-lock.js';

/** The consensus snapshot of a story's current packet (stored in consensus_snapshots.snapshot). */
export interface ConsensusSnapshot {
  storyId: string;
  packetHash: string;
  version: number;
  attestations: { count: number; weight: number };
  objections: { count: number; weight: number };
  flags: { count: number; low: number; medium: number; high: number };
  rewardVotes: { count: number; up: number; down: number; weightUp: number; weightDown: number };
  reviewStatus: ReviewStatus;
  publicationStage: string;
  storyState: StoryState | null;
  graduation: { gateMet: boolean; requiredHumanAction: string; humanActionRecorded: boolean };
  thresholds: {
    minAttestations: number;
    contestedObjectionRatio: number;
    minObjections: number;
    graduationMinAttestations: number;
  };
  computedAt: string;
}

interface Tallies {
  attCount: number;
  attWeight: number;
  objCount: number;
  objWeight: number;
  flags: { count: number; low: number; medium: number; high: number };
  votes: { count: number; up: number; down: number; weightUp: number; weightDown: number };
}

async function tally(db: Db, storyId: string, packetHash: string): Promise<Tallies> {
  const reviews = await db
    .selectFrom('agent_reviews')
    .select(['kind', sql<number>`count(*)::int`.as('n'), sql<number>`coalesce(sum(weight), 0)::int`.as('w')])
    .where('story_id', '=', storyId)
    .where('packet_hash', '=', packetHash)
    .groupBy('kind')
    .execute();
  const flags = await db
    .selectFrom('flags')
    .select(['severity', sql<number>`count(*)::int`.as('n')])
    .where('story_id', '=', storyId)
    .groupBy('severity')
    .execute();
  const votes = await db
    .selectFrom('reward_votes')
    .select(['vote', sql<number>`count(*)::int`.as('n'), sql<number>`coalesce(sum(weight), 0)::int`.as('w')])
    .where('story_id', '=', storyId)
    .groupBy('vote')
    .execute();
  const review = (kind: string) => reviews.find((r) => r.kind === kind) ?? { n: 0, w: 0 };
  const flag = (severity: string) => flags.find((f) => f.severity === severity)?.n ?? 0;
  const vote = (v: string) => votes.find((r) => r.vote === v) ?? { n: 0, w: 0 };
  return {
    attCount: review('ATTESTATION').n,
    attWeight: review('ATTESTATION').w,
    objCount: review('OBJECTION').n,
    objWeight: review('OBJECTION').w,
    flags: { count: flag('LOW') + flag('MEDIUM') + flag('HIGH'), low: flag('LOW'), medium: flag('MEDIUM'), high: flag('HIGH') },
    votes: { count: vote('UP').n + vote('DOWN').n, up: vote('UP').n, down: vote('DOWN').n, weightUp: vote('UP').w, weightDown: vote('DOWN').w },
  };
}

const STATE_TITLES: Record<StoryState, string> = {
  PROVISIONAL: 'Back to provisional',
  GRADUATED: 'Graduated',
  CONTESTED: 'Contested by reviewing agents',
  UNDER_REVIEW: 'Under review',
};

/**
 * Recomputes the consensus snapshot of a story whose row the caller has locked (lockStory), inside the
 * caller's transaction: review status, graduation (consuming one verified graduate:<storyId> action when
 * the gate is met), trending score, the stored snapshot, and a ledger event when the public state changed.
 * `overrideStatus` lets a write (a HIGH flag, an admin action) set a sticky status first.
 */
export async function recomputeConsensus(db: Tx, events: TxEvents, story: LockedStory, now: Date, overrideStatus?: ReviewStatus): Promise<ConsensusSnapshot> {
  const params = await readParameters(db);
  const t = await tally(db, story.id, story.current_packet_hash);
  const before = storyState(story.publication_stage, story.review_status);
  let reviewStatus = deriveReviewStatus(overrideStatus ?? story.review_status, t, params);
  let stage = story.publication_stage;
  let graduatedAt = story.graduated_at;
  const graduateAction = `graduate:${story.id}`;
  const gateMet = stage === 'PROVISIONAL' && reviewStatus === 'CLEAR' && t.attWeight >= params['consensus.graduationMinAttestations'];
  if (gateMet && (await consumeHumanAction(db, graduateAction, `story:${story.id}`, now))) {
    stage = 'GRADUATED';
    graduatedAt = now;
  }
  if (stage === 'CANDIDATE') reviewStatus = story.review_status;
  const after = storyState(stage, reviewStatus);
  const score = story.published_at
    ? trendingScore({
        publishedAt: story.published_at,
        attestationWeight: t.attWeight,
        objectionWeight: t.objWeight,
        upVotes: t.votes.weightUp,
        downVotes: t.votes.weightDown,
        comments: story.comment_count,
      })
    : 0;
  await db
    .updateTable('stories')
    .set({
      review_status: reviewStatus,
      publication_stage: stage,
      graduated_at: graduatedAt,
      attestation_count: t.attCount,
      objection_count: t.objCount,
      flag_count: t.flags.count,
      reward_vote_count: t.votes.count,
      trending_score: score,
      updated_at: now,
    })
    .where('id', '=', story.id)
    .execute();

  const snapshot: ConsensusSnapshot = {
    storyId: story.id,
    packetHash: story.current_packet_hash,
    version: story.current_version,
    attestations: { count: t.attCount, weight: t.attWeight },
    objections: { count: t.objCount, weight: t.objWeight },
    flags: t.flags,
    rewardVotes: t.votes,
    reviewStatus,
    publicationStage: stage,
    storyState: after,
    graduation: {
      gateMet: stage === 'GRADUATED' || gateMet,
      requiredHumanAction: graduateAction,
      humanActionRecorded: stage === 'GRADUATED' || (await hasOpenHumanAction(db, graduateAction)),
    },
    thresholds: {
      minAttestations: params['consensus.minAttestations'],
      contestedObjectionRatio: params['consensus.contestedObjectionRatio'],
      minObjections: params['consensus.minObjections'],
      graduationMinAttestations: params['consensus.graduationMinAttestations'],
    },
    computedAt: now.toISOString(),
  };
  await db
    .insertInto('consensus_snapshots')
    .values({ story_id: story.id, packet_hash: story.current_packet_hash, snapshot: JSON.stringify(snapshot), computed_at: now })
    .onConflict((oc) => oc.column('story_id').doUpdateSet({ packet_hash: story.current_packet_hash, snapshot: JSON.stringify(snapshot), computed_at: now }))
    .execute();

  if (after && before && after !== before) {
    await recordLedgerEvent(db, events, {
      storyId: story.id,
      type: after === 'CONTESTED' || after === 'UNDER_REVIEW' ? 'CHALLENGE' : 'UPDATE',
      title: `${STATE_TITLES[after]}: ${story.title}`,
      storyState: after,
      editorialState: after === 'GRADUATED' ? 'GRADUATED' : after === 'PROVISIONAL' ? 'PUBLISHED' : 'CHALLENGED',
      promotionState: stage,
      bucket: bucketForState(after),
      reason: `${before} -> ${after}`,
      at: now,
    });
  }
  Object.assign(story, { review_status: reviewStatus, publication_stage: stage, graduated_at: graduatedAt });
  return snapshot;
}
