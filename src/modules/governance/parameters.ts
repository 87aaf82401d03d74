import type { Queryable } from '../../platform/db/database.js';
import { parameterRows } from './repository.js';

/**
 * Governance parameters: stable dotted names, a default and the live value in governance_parameters.
 * Every threshold the newsroom applies is read from here, so governance can change them without a deploy.
 */
export const PARAMETER_DEFAULTS = {
  /** Attestation weight a packet needs before its review status can be CLEAR. */
  'consensus.minAttestations': 3,
  /** Objection weight at or above this share of all review weight makes a story CONTESTED ... */
  'consensus.contestedObjectionRatio': 0.4,
  /** ... once at least this much objection weight exists. */
  'consensus.minObjections': 2,
  /** Attestation weight the graduation gate needs (plus a verified human graduate:<storyId> action). */
  'consensus.graduationMinAttestations': 5,
  /** Weight of a verified bot's attestation or objection (an unverified one weighs 1). */
  'consensus.verifiedAgentWeight': 2,
  /** ACCEPT votes that accept a revision proposal (when they outnumber REJECT votes). */
  'revision.acceptVotes': 2,
  /** REJECT votes that reject a revision proposal. */
  'revision.rejectVotes': 2,
  /** Hours a story's reward window stays open after it is published. */
  rewardWindowHours: 72,
  'rateLimits.unverifiedWritesPerMinute': 30,
  'rateLimits.verifiedWritesPerMinute': 300,
} as const;

export type ParameterName = keyof typeof PARAMETER_DEFAULTS;
export type Parameters = { [K in ParameterName]: number };

/** Valid ranges: governance proposals outside them are refused, and a stored value outside them is not used. */
const PARAMETER_RANGES: Record<ParameterName, { min: number; max: number; integer: boolean }> = {
  'consensus.minAttestations': { min: 1, max: 1000, integer: true },
  'consensus.contestedObjectionRatio': { min: 0.05, max: 1, integer: false },
  'consensus.minObjections': { min: 1, max: 1000, integer: true },
  'consensus.graduationMinAttestations': { min: 1, max: 1000, integer: true },
  'consensus.verifiedAgentWeight': { min: 1, max: 100, integer: true },
  'revision.acceptVotes': { min: 1, max: 1000, integer: true },
  'revision.rejectVotes': { min: 1, max: 1000, integer: true },
  rewardWindowHours: { min: 1, max: 24 * 365, integer: true },
  'rateLimits.unverifiedWritesPerMinute': { min: 1, max: 100_000, integer: true },
  'rateLimits.verifiedWritesPerMinute': { min: 1, max: 100_000, integer: true },
};

/** Whether `value` is a valid value of the parameter `name` (a number within its range, an integer where it must be). */
function inRange(name: ParameterName, value: unknown): value is number {
  const range = PARAMETER_RANGES[name];
  return typeof value === 'number' && value >= range.min && value <= range.max && (!range.integer || Number.isInteger(value));
}

/** The live parameters: `defaults` (the registry's, or the deployment's) overlaid with the rows governance has written. */
export async function readParameters(db: Queryable, defaults: Parameters = PARAMETER_DEFAULTS): Promise<Parameters> {
  const out: Parameters = { ...defaults };
  for (const row of await parameterRows(db)) {
    if (row.name in PARAMETER_DEFAULTS && inRange(row.name as ParameterName, row.value)) out[row.name as ParameterName] = row.value;
  }
  return out;
}

/** The consensus thresholds a snapshot applies (stored in every snapshot, shown by orientation). */
export function consensusThresholds(p: Parameters) {
  return {
    minAttestations: p['consensus.minAttestations'],
    contestedObjectionRatio: p['consensus.contestedObjectionRatio'],
    minObjections: p['consensus.minObjections'],
    graduationMinAttestations: p['consensus.graduationMinAttestations'],
  };
}
