import type { GovernanceTables } from '../tables.js';
import type { Queryable } from '../../platform/db/database.js';
import type { ErrorDetail } from '../../platform/errors.js';
import { parameterRows } from './repository.js';

/**
 * Governance parameters: stable dotted names, each with its description, default and valid range in this one
 * registry; everything else (the defaults object, the range checks, the state listing, docs/governance.md's
 * table) is derived from it. The live value is the default overlaid with the row governance wrote in
 * governance_parameters, then with the active emergency overlay. Every threshold the newsroom applies is read
 * from here once per request, so a change takes effect from the next request on, on every instance.
 */
interface ParameterSpec {
  description: string;
  default: number;
  min: number;
  max: number;
  /** Whether only whole numbers are valid. */
  integer: boolean;
}

const spec = (description: string, def: number, min: number, max: number, integer = true): ParameterSpec => ({
  description,
  default: def,
  min,
  max,
  integer,
});

const REGISTRY = {
  'consensus.minAttestations': spec('Attestation weight a packet needs before its review status can be CLEAR', 3, 1, 1000),
  'consensus.contestedObjectionRatio': spec(
    'Share of all review weight that objections must reach to make a story CONTESTED (with consensus.minObjections)',
    0.4,
    0.05,
    1,
    false,
  ),
  'consensus.minObjections': spec('Objection weight a story needs before it can be CONTESTED', 2, 1, 1000),
  'consensus.graduationMinAttestations': spec(
    "Attestation weight the graduation gate needs (besides a verified human's graduate action for the story)",
    5,
    1,
    1000,
  ),
  'consensus.verifiedAgentWeight': spec("Weight of a verified bot's attestation or objection (an unverified one weighs 1)", 2, 1, 100),
  'revision.acceptVotes': spec('ACCEPT votes that accept a revision proposal (when they outnumber REJECT votes)', 2, 1, 1000),
  'revision.rejectVotes': spec('REJECT votes that reject a revision proposal', 2, 1, 1000),
  rewardWindowHours: spec("Hours a story's reward window stays open after it is published", 72, 1, 24 * 365),
  'rateLimits.unverifiedWritesPerMinute': spec(
    'Writes per minute of an unverified bot (default: RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE)',
    30,
    1,
    100_000,
  ),
  'rateLimits.verifiedWritesPerMinute': spec(
    'Writes per minute of a verified bot (default: RATE_LIMIT_VERIFIED_WRITES_PER_MINUTE)',
    300,
    1,
    100_000,
  ),
  'emergency.flagSurgeRatio': spec(
    "Evaluate: the flag surge trips when the last hour's flags reach this multiple of the hourly average of the 24 hours before (and emergency.flagSurgeMinFlags)",
    3,
    1,
    100,
    false,
  ),
  'emergency.flagSurgeMinFlags': spec('Evaluate: the fewest flags in the last hour that can trip the flag surge', 10, 1, 100_000),
  'emergency.objectionSpikeRatio': spec(
    "Evaluate: the objection spike trips when the last hour's objections reach this multiple of the hourly average of the 24 hours before (and emergency.objectionSpikeMinObjections)",
    3,
    1,
    100,
    false,
  ),
  'emergency.objectionSpikeMinObjections': spec(
    'Evaluate: the fewest objections in the last hour that can trip the objection spike',
    10,
    1,
    100_000,
  ),
  'emergency.thresholdMultiplier': spec(
    'Emergency measures multiply the CLEAR, graduation and revision-accept thresholds by this factor (rounded up, capped at their maximum)',
    2,
    1,
    10,
    false,
  ),
  // Integrity: the cartel analysis's finding in consensus and evaluate
  'emergency.collusionMinMembers': spec(
    'Evaluate: the collusion signal trips when the latest cartel analysis, made in the last 24 hours, flagged at least this many members',
    6,
    1,
    100_000,
  ),
  'integrity.clusterAttestationDiscount': spec(
    "Share of an attestation's weight that consensus removes when the attesting bot and the story's author are in one flagged cluster of the latest cartel analysis (0: off)",
    0,
    0,
    1,
    false,
  ),
} as const satisfies Record<string, ParameterSpec>;

export type ParameterName = keyof typeof REGISTRY;
export type Parameters = { [K in ParameterName]: number };

/** Every parameter name, in registry order. */
export const PARAMETER_NAMES = Object.keys(REGISTRY) as ParameterName[];

export const PARAMETER_DEFAULTS = Object.fromEntries(PARAMETER_NAMES.map((name) => [name, REGISTRY[name].default])) as Parameters;

export const isParameterName = (name: string): name is ParameterName => Object.hasOwn(REGISTRY, name);

/** The description and valid range of a parameter (the state listing and the docs show them). */
export function parameterSpec(name: ParameterName): { description: string; min: number; max: number; integer: boolean } {
  const { description, min, max, integer } = REGISTRY[name];
  return { description, min, max, integer };
}

/** Whether `value` is a valid value of the parameter `name` (a number within its range, an integer where it must be). */
function inRange(name: ParameterName, value: unknown): value is number {
  const range = REGISTRY[name];
  return typeof value === 'number' && value >= range.min && value <= range.max && (!range.integer || Number.isInteger(value));
}

/**
 * What is wrong with a set of proposed changes, one detail per unknown parameter or invalid value (each names
 * the parameter under /changes/<name>); empty when every change is valid.
 */
export function checkChanges(changes: Record<string, unknown>): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const [name, value] of Object.entries(changes)) {
    const path = `/changes/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!isParameterName(name)) details.push({ path, code: 'UNKNOWN_PARAMETER', message: `${name} is not a governance parameter` });
    else if (!inRange(name, value)) {
      const r = REGISTRY[name];
      details.push({
        path,
        code: 'OUT_OF_RANGE',
        message: `${name} must be ${r.integer ? 'an integer' : 'a number'} from ${r.min} to ${r.max}`,
      });
    }
  }
  if (Object.keys(changes).length === 0) details.push({ path: '/changes', message: 'a proposal changes at least one parameter' });
  return details;
}

/**
 * The emergency measures for the parameters in force: the CLEAR, graduation and revision-accept thresholds
 * multiplied by `emergency.thresholdMultiplier`, rounded up, capped at each one's maximum. Only parameters the
 * measures actually raise are listed.
 */
export function emergencyOverlay(p: Parameters): Partial<Parameters> {
  const overlay: Partial<Parameters> = {};
  for (const name of ['consensus.minAttestations', 'consensus.graduationMinAttestations', 'revision.acceptVotes'] as const) {
    const raised = Math.min(REGISTRY[name].max, Math.ceil(p[name] * p['emergency.thresholdMultiplier']));
    if (raised > p[name]) overlay[name] = raised;
  }
  return overlay;
}

/** The value in force of each parameter and where it comes from (the governance state lists this). */
export interface ParameterValues {
  /** Defaults overlaid with governance's rows: the values without emergency measures. */
  base: Parameters;
  /** `base` overlaid with the active emergency overlay: what the newsroom applies. */
  effective: Parameters;
  /** The parameters the emergency overlay sets. */
  overridden: ReadonlySet<ParameterName>;
}

/**
 * Lays the rows over `defaults`: governance's rows first, then the emergency overlay. A stored value that is
 * not a known parameter or is outside its range is not used.
 */
export function overlayParameters(
  defaults: Parameters,
  rows: readonly { name: string; value: unknown; emergency: boolean }[],
): ParameterValues {
  const base: Parameters = { ...defaults };
  for (const row of rows) if (!row.emergency && isParameterName(row.name) && inRange(row.name, row.value)) base[row.name] = row.value;
  const effective: Parameters = { ...base };
  const overridden = new Set<ParameterName>();
  for (const row of rows) {
    if (row.emergency && isParameterName(row.name) && inRange(row.name, row.value)) {
      effective[row.name] = row.value;
      overridden.add(row.name);
    }
  }
  return { base, effective, overridden };
}

/** The live parameters: `defaults` (the registry's, or the deployment's) with governance's rows and the emergency overlay. */
export async function readParameters(db: Queryable<GovernanceTables>, defaults: Parameters = PARAMETER_DEFAULTS): Promise<Parameters> {
  return overlayParameters(defaults, await parameterRows(db)).effective;
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
