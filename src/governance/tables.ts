import type { GovernanceDatabase } from './rows.js';
import type { PlatformDatabase } from '../platform/rows.js';
import type { TableNames } from '../platform/db/row-types.js';

const names = [
  'governance_parameters',
  'governance_proposals',
  'governance_emergencies',
  'control_plane_requests',
  'control_plane_approvals',
  'integrity_analyses',
  'integrity_flagged_members',
  'integrity_finding_actions',
] as const;

/**
 * The tables governance owns: the parameters and their proposals, emergency changes, the control plane's requests
 * and approvals, and the cartel analyses with their flagged members and what admins did about them.
 */
export const GOVERNANCE_TABLES: TableNames<GovernanceDatabase, typeof names> = names;

/**
 * Governance's handle: its own tables and platform's, whose audit entry goes in the same transaction as the change
 * it records (one interface extending both: Kysely's handle types do not take an intersection of table sets). What governance needs
 * of another context comes through ports: the newsroom's activity (`HealthCounts`, `IntegrityInteractions`) and
 * the spending of a person's proof (`ProofSpender`).
 */
export interface GovernanceTables extends GovernanceDatabase, PlatformDatabase {}
