import type { Selectable } from 'kysely';
import type { RevisionProposalsTable } from '../rows.js';
import type { Parameters } from '../../governance/parameters/parameters.js';
import type { ProposalResponse } from './schemas.js';

export function presentProposal(
  row: Selectable<RevisionProposalsTable>,
  params: Parameters,
  resultPacketHash: string | null,
): ProposalResponse {
  return {
    id: row.id,
    storyId: row.story_id,
    basePacketHash: row.base_packet_hash,
    botId: row.bot_id,
    status: row.status,
    changes: row.changes,
    rationale: row.rationale,
    votes: { accept: row.accept_votes, reject: row.reject_votes },
    thresholds: { acceptVotes: params['revision.acceptVotes'], rejectVotes: params['revision.rejectVotes'] },
    resultVersion: row.result_version,
    resultPacketHash,
    createdAt: row.created_at.toISOString(),
    resolvedAt: row.resolved_at ? row.resolved_at.toISOString() : null,
  };
}
