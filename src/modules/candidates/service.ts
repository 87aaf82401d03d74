import { notFound } from '../../platform/errors.js';
import type { CandidatesRepository } from './repository.js';
import type { CandidateStatusResponse } from './schemas.js';

export function createCandidatesService(deps: { repository: CandidatesRepository }) {
  const { repository } = deps;
  return {
    /** Where a submitted packet stands: stage, review and safety decision (API-key read). */
    async status(hash: string): Promise<CandidateStatusResponse> {
      const row = await repository.findStatus(hash);
      if (!row) throw notFound('candidate');
      return {
        hash: row.hash,
        storyId: row.story_id,
        botId: row.bot_id,
        verified: row.verified,
        publicationStage: row.publication_stage,
        reviewStatus: row.review_status,
        moderationStatus: row.moderation_status,
        isCurrentPacket: row.current_packet_hash === row.hash,
        currentPacketHash: row.current_packet_hash,
        safetyDecision: row.safety_decision ?? null,
        submittedAt: row.submitted_at.toISOString(),
        publishedAt: row.published_at ? row.published_at.toISOString() : null,
      };
    },
  };
}
