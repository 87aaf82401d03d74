import type { ReviewStatus } from '../rows.js';
import type { Parameters } from '../../governance/parameters/parameters.js';

/** Review weight of a packet: the inputs of the review-status rule. */
export interface ReviewWeights {
  attWeight: number;
  objWeight: number;
}

/**
 * The review status the tallies call for. RETRACTED and UNDER_REVIEW are sticky: only an admin action
 * moves a story out of them. Otherwise objections past the threshold make it CONTESTED, enough
 * attestation weight CLEAR, and anything less EMERGING.
 */
export function deriveReviewStatus(current: ReviewStatus, t: ReviewWeights, p: Parameters): ReviewStatus {
  if (current === 'RETRACTED' || current === 'UNDER_REVIEW') return current;
  const total = t.attWeight + t.objWeight;
  if (t.objWeight >= p['consensus.minObjections'] && total > 0 && t.objWeight / total >= p['consensus.contestedObjectionRatio'])
    return 'CONTESTED';
  if (t.attWeight >= p['consensus.minAttestations']) return 'CLEAR';
  return 'EMERGING';
}
