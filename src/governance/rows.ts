import type { ColumnType, Generated } from 'kysely';
import type { Int8, UpdatedAt } from '../platform/db/row-types.js';

/**
 * The row types of the tables governance owns, for Kysely (`GovernanceDatabase`: table name → row type); the names are
 * listed in tables.ts. test/platform/schema-types.test.ts checks them against the migrated database.
 */
export interface GovernanceDatabase {
  governance_parameters: GovernanceParametersTable;
  governance_proposals: GovernanceProposalsTable;
  governance_emergencies: GovernanceEmergenciesTable;
  control_plane_requests: ControlPlaneRequestsTable;
  control_plane_approvals: ControlPlaneApprovalsTable;
  integrity_analyses: IntegrityAnalysesTable;
  integrity_flagged_members: IntegrityFlaggedMembersTable;
  integrity_finding_actions: IntegrityFindingActionsTable;
}

export interface GovernanceParametersTable {
  name: string;
  value: ColumnType<unknown, string, string>;
  default_value: ColumnType<unknown, string, string>;
  updated_by_proposal_id: string | null;
  updated_at: UpdatedAt;
}

/** migrations/0004_governance.sql */
export type ProposalStatus = 'DRAFT' | 'RATIFIED' | 'ACTIVE' | 'REJECTED' | 'SUPERSEDED';

export interface GovernanceProposalsTable {
  id: string;
  seq: Generated<Int8>;
  title: string;
  rationale: string;
  changes: ColumnType<Record<string, number>, string, string>;
  status: Generated<ProposalStatus>;
  created_by: string;
  created_by_actor_id: string;
  created_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
  decision_action_id: string | null;
  activated_by: string | null;
  activated_at: Date | null;
  activation_request_id: string | null;
  superseded_by: string | null;
  superseded_at: Date | null;
  updated_at: Date;
}

export interface GovernanceEmergenciesTable {
  id: string;
  status: 'ACTIVE' | 'CLEARED';
  overlay: ColumnType<Record<string, number>, string, string>;
  signals: ColumnType<unknown, string, string>;
  activated_by: string;
  activated_at: Date;
  activation_request_id: string | null;
  cleared_by: string | null;
  cleared_at: Date | null;
  clear_reason: string | null;
  clear_request_id: string | null;
}

export type ControlPlaneAction =
  'governance.activate' | 'governance.emergency.apply' | 'governance.emergency.clear' | 'settlement.run' | 'batch.finalize';

export type ControlPlaneStatus = 'PENDING' | 'EXECUTED' | 'CONSUMED' | 'CANCELLED';

export interface ControlPlaneRequestsTable {
  id: string;
  seq: Generated<Int8>;
  action: ControlPlaneAction;
  target: string;
  payload: ColumnType<unknown, string, string>;
  payload_hash: string;
  reason: string;
  status: Generated<ControlPlaneStatus>;
  requested_by: string;
  requested_by_actor_id: string;
  approvals_required: number;
  approval_count: Generated<number>;
  created_at: Date;
  executed_at: Date | null;
  consumed_at: Date | null;
  consumed_by: string | null;
  cancelled_at: Date | null;
  cancelled_by: string | null;
  cancel_reason: string | null;
}

export interface ControlPlaneApprovalsTable {
  request_id: string;
  approver: string;
  approver_actor_id: string;
  verified_action_id: string;
  approved_at: Date;
}

// Cartel analyses and their flagged members (migrations/0004_governance.sql).
export interface IntegrityAnalysesTable {
  id: string;
  seq: Generated<Int8>;
  method: string;
  parameters: ColumnType<Record<string, unknown>, string, string>;
  window_start: Date;
  analyzed_at: Date;
  analyzed_by: string;
  clusters: ColumnType<unknown[], string, string>;
  summary: ColumnType<Record<string, unknown>, string, string>;
  cluster_count: number;
  member_count: number;
}

export interface IntegrityFlaggedMembersTable {
  analysis_id: string;
  member_kind: 'bot' | 'actor';
  member_id: string;
  cluster_id: string;
  score: number;
}

// What admins did about a finding (migrations/0013_integrity_finding_actions.sql).
export interface IntegrityFindingActionsTable {
  id: string;
  seq: Generated<Int8>;
  analysis_id: string;
  cluster_id: string;
  action: 'DISMISSED' | 'CASE_OPENED' | 'FROZEN';
  member_kind: 'bot' | 'actor' | null;
  member_id: string | null;
  reference: string | null;
  reason: string;
  acted_by: string;
  acted_at: Date;
}
