import type { ReviewStatus, StoryState } from '../rows.js';
import { consensusThresholds, type Parameters } from '../../governance/parameters/parameters.js';
import type { ConsensusResponse } from './evidence-schemas.js';
import type { StoryRow } from './presenter.js';
import { storyState } from './story-state.js';

/** The consensus read: the snapshot the write side stored, or a neutral one before any was computed. */

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
  thresholds: ReturnType<typeof consensusThresholds>;
  /**
   * Present when `integrity.clusterAttestationDiscount` > 0: the attestations by bots in a flagged cluster of
   * the latest cartel analysis together with the story's author, and the weight removed from them
   * (`applied`: some were discounted). `attestations.weight` is after the discount.
   */
  clusterDiscount?: {
    discount: number;
    analysisId: string | null;
    applied: boolean;
    attestations: number;
    weightRemoved: number;
  };
  computedAt: string;
}

type SnapshotStory = Pick<StoryRow, 'id' | 'current_packet_hash' | 'current_version' | 'publication_stage' | 'review_status'>;

export function storedConsensus(
  story: SnapshotStory,
  row: { packet_hash: string; snapshot: unknown; computed_at: Date },
): ConsensusResponse {
  return {
    storyId: story.id,
    packetHash: row.packet_hash,
    computedAt: row.computed_at.toISOString(),
    currentPacket: row.packet_hash === story.current_packet_hash,
    source: 'stored',
    snapshot: row.snapshot as ConsensusResponse['snapshot'],
  };
}

/**
 * Zero counts on the current packet under the current thresholds, with the story's own review status and
 * stage. Nothing is written: the snapshot row appears with the first review, vote or flag.
 */
export function neutralConsensus(story: SnapshotStory, params: Parameters, now: Date): ConsensusResponse {
  const computedAt = now.toISOString();
  const graduated = story.publication_stage === 'GRADUATED';
  const snapshot: ConsensusResponse['snapshot'] = {
    storyId: story.id,
    packetHash: story.current_packet_hash,
    version: story.current_version,
    attestations: { count: 0, weight: 0 },
    objections: { count: 0, weight: 0 },
    flags: { count: 0, low: 0, medium: 0, high: 0 },
    rewardVotes: { count: 0, up: 0, down: 0, weightUp: 0, weightDown: 0 },
    reviewStatus: story.review_status,
    publicationStage: story.publication_stage,
    storyState: storyState(story.publication_stage, story.review_status),
    graduation: { gateMet: graduated, requiredHumanAction: `graduate:${story.id}`, humanActionRecorded: graduated },
    thresholds: consensusThresholds(params),
    computedAt,
  };
  // Compile-time check: the neutral snapshot has exactly the shape the write side stores.
  const _sameShapeAsStored: ConsensusSnapshot = snapshot;
  return { storyId: story.id, packetHash: story.current_packet_hash, computedAt, currentPacket: true, source: 'neutral', snapshot };
}
