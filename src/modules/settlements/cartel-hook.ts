/**
 * The hook through which cartel analysis (POST /v1/admin/governance/cartel/analyze, built separately) will
 * hold payouts for review. A settlement asks it which of the beneficiaries it is about to pay belong to a
 * cluster flagged as colluding; their payouts are created in state REVIEW instead of PAYABLE (never FROZEN:
 * that is an admin's decision) and wait for a review case to release them.
 *
 * Until cartel analysis exists the service uses `noCartelHolds`, which holds nobody. To connect it, pass a
 * `CartelHolds` to createSettlementService (src/modules/settlements/index.ts) that reads the latest analysis:
 * members are bot ids (beneficiaryKind BOT) and actor ids or linked-human ids (beneficiaryKind HUMAN).
 */
export type CartelHolds = (beneficiaries: readonly { kind: 'BOT' | 'HUMAN'; id: string }[]) => Promise<ReadonlySet<string>>;

/** Holds nobody (no cartel analysis recorded). Returns `${kind}:${id}` keys of held beneficiaries. */
export const noCartelHolds: CartelHolds = async () => new Set<string>();
