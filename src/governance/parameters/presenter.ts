import type { EmergencyRow, ProposalRow } from './repository.js';
import type { EmergencyState, Proposal, Signal } from './schemas.js';

/** Governance rows as the API answers them. */

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentProposal(row: ProposalRow): Proposal {
  return {
    id: row.id,
    title: row.title,
    rationale: row.rationale,
    changes: row.changes,
    status: row.status,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    decidedBy: row.decided_by,
    decidedAt: iso(row.decided_at),
    activatedBy: row.activated_by,
    activatedAt: iso(row.activated_at),
    activationRequestId: row.activation_request_id,
    supersededBy: row.superseded_by,
    supersededAt: iso(row.superseded_at),
  };
}

/** The emergency state: the active emergency, or none (with when the last one was cleared). */
export function presentEmergency(active: EmergencyRow | null, lastCleared: EmergencyRow | null): EmergencyState {
  return {
    active: active !== null,
    id: active?.id ?? null,
    overlay: active?.overlay ?? {},
    signals: (active?.signals as Signal[] | undefined) ?? [],
    activatedAt: iso(active?.activated_at ?? null),
    activatedBy: active?.activated_by ?? null,
    activationRequestId: active?.activation_request_id ?? null,
    lastClearedAt: iso(lastCleared?.cleared_at ?? null),
  };
}
