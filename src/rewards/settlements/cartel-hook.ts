import type { Queryable } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import { flaggedInLatestAnalysis } from '../../governance/integrity/service.js';
import type { GovernanceTables } from '../../governance/tables.js';

/**
 * Whether the payouts of a beneficiary (`kind`, `id`) owned by `owner` (a bot's linked human, a flagger's) are
 * held for review; asked once per payout of a run.
 */
export type HoldsFor = (kind: 'BOT' | 'HUMAN', id: string, owner: string | null) => boolean;

/**
 * The hook through which cartel analysis (POST /v1/admin/governance/cartel/analyze) holds
 * payouts for review. A settlement reads it through its own transaction `q`, together with its other reads,
 * and asks the answer which of the beneficiaries it pays belong to a cluster flagged as colluding; their
 * payouts are created in state REVIEW instead of PAYABLE (never FROZEN: that is an admin's decision) and wait
 * for a review case to release them.
 */
export type CartelHolds = (q: Queryable<RewardsTables>) => Promise<HoldsFor>;

/** Holds nobody (a settlement without the integrity signal; tests of the arithmetic use it). */
export const noCartelHolds: CartelHolds = async () => () => false;

/**
 * Holds the members of the latest cartel analysis's flagged clusters, whatever its age (docs/rewards.md
 * "Cartel holds"): a BOT beneficiary when the bot was flagged or its owner (the human who verified it) is a
 * flagged person; a HUMAN beneficiary when it or its owner is a flagged person. A flagged person is a flagged
 * actor id, or the linked human that actor is bound to (actor_bindings). Integrity's reads, on the rewards'
 * transaction retyped to governance's tables at the composition root (the `CartelHolds` it wires).
 */
export const latestAnalysisCartelHolds = async (q: Queryable<GovernanceTables>): Promise<HoldsFor> => {
  const { bots, people } = await flaggedInLatestAnalysis(q);
  if (!bots.size && !people.size) return () => false;
  return (kind, id, owner) => (kind === 'BOT' ? bots.has(id) : people.has(id)) || (owner !== null && people.has(owner));
};
