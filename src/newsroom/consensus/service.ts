import type { Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import type { ReviewStatus, StoryState } from '../rows.js';
import type { TxEvents } from '../../platform/db/transaction.js';
import { consensusThresholds, type Parameters } from '../../governance/parameters/parameters.js';
import { recordLedgerEvent } from '../ledger/record.js';
import type { LockedStory } from '../stories/story-lock.js';
import { bucketForState, storyState, trendingScore } from '../stories/story-state.js';
import type { ConsensusSnapshot } from '../stories/consensus-view.js';
import { updateConsensusColumns } from '../stories/story-lock.js';
import { attestationsInsideAuthorCluster, saveSnapshot, tallyStory, type Tallies } from './repository.js';
import { deriveReviewStatus } from './review-status.js';

/**
 * What the newsroom needs of identity's verified human actions (a graduation, a verified flag or reward vote spends
 * one), in the newsroom's transaction: declared here, wired in composition.ts to identity/humans/human-actions.ts.
 */
export interface HumanActions {
  /** Consumes one open action (oldest first), optionally only one proven by `linkedHumanId`: its id, or null. */
  consume(tx: Tx<NewsroomTables>, action: string, consumedBy: string, at: Date, linkedHumanId?: string): Promise<string | null>;
  /** Whether an open action exists, without consuming it. */
  isOpen(tx: Tx<NewsroomTables>, action: string): Promise<boolean>;
}

const STATE_TITLES: Record<StoryState, string> = {
  PROVISIONAL: 'Back to provisional',
  GRADUATED: 'Graduated',
  CONTESTED: 'Contested by reviewing agents',
  UNDER_REVIEW: 'Under review',
};

/**
 * The cluster discount: with `integrity.clusterAttestationDiscount` > 0, the
 * attestations on this packet by bots that share a flagged cluster of the latest cartel analysis with the
 * author lose that share of their weight (`t.attWeight` is lowered in place). Undefined when the parameter is 0.
 */
async function discountClusterAttestations(tx: Tx<NewsroomTables>, story: LockedStory, t: Tallies, params: Parameters) {
  const discount = params['integrity.clusterAttestationDiscount'];
  if (discount <= 0) return undefined;
  const inside = await attestationsInsideAuthorCluster(tx, {
    id: story.id,
    packetHash: story.current_packet_hash,
    authorBotId: story.author_bot_id,
  });
  const weightRemoved = Math.round(inside.weight * discount * 1e6) / 1e6;
  t.attWeight = Math.round((t.attWeight - weightRemoved) * 1e6) / 1e6;
  return { discount, analysisId: inside.analysisId, applied: inside.count > 0, attestations: inside.count, weightRemoved };
}

/**
 * Recomputes the consensus snapshot of a story the caller has locked for writing (lockVisibleStory), inside
 * the caller's transaction: review status, graduation (consuming one verified graduate:<storyId> action when
 * the gate is met), trending score, the stored snapshot, and a ledger event when the public state changed.
 * `story` is the story as the caller's write left it; `overrideStatus` lets a write (a HIGH flag, an admin
 * action) set a sticky status first.
 */
export async function recomputeConsensus(
  humanActions: HumanActions,
  tx: Tx<NewsroomTables>,
  events: TxEvents,
  story: LockedStory,
  params: Parameters,
  now: Date,
  overrideStatus?: ReviewStatus,
): Promise<ConsensusSnapshot> {
  const t = await tallyStory(tx, story.id, story.current_packet_hash);
  const clusterDiscount = await discountClusterAttestations(tx, story, t, params);
  const before = storyState(story.publication_stage, story.review_status);
  let reviewStatus = deriveReviewStatus(overrideStatus ?? story.review_status, t, params);
  let stage = story.publication_stage;
  let graduatedAt = story.graduated_at;
  const graduateAction = `graduate:${story.id}`;
  const gateMet = stage === 'PROVISIONAL' && reviewStatus === 'CLEAR' && t.attWeight >= params['consensus.graduationMinAttestations'];
  if (gateMet && (await humanActions.consume(tx, graduateAction, `story:${story.id}`, now))) {
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
  await updateConsensusColumns(
    tx,
    story,
    {
      review_status: reviewStatus,
      publication_stage: stage,
      graduated_at: graduatedAt,
      attestation_count: t.attCount,
      objection_count: t.objCount,
      flag_count: t.flags.count,
      reward_vote_count: t.votes.count,
      trending_score: score,
    },
    now,
  );

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
      humanActionRecorded: stage === 'GRADUATED' || (await humanActions.isOpen(tx, graduateAction)),
    },
    thresholds: consensusThresholds(params),
    ...(clusterDiscount ? { clusterDiscount } : {}),
    computedAt: now.toISOString(),
  };
  await saveSnapshot(tx, story.id, story.current_packet_hash, snapshot, now);

  if (after && before && after !== before) {
    await recordLedgerEvent(tx, events, {
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
  return snapshot;
}
