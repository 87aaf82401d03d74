import type { Config } from '../../config.js';
import { appError } from '../errors.js';
import { MINUTE_MS, refuseOverLimit, type BudgetPolicy } from '../rate-limit.js';
import type { RateLimitStore } from '../rate-limit-store.js';
import type { HumanTier } from './types.js';

/** The tier the identity records bind to `actorId` for `linkedHumanId`, or null when they bind none. */
export type FindBoundTier = (actorId: string, linkedHumanId: string) => Promise<HumanTier | null>;

/**
 * The tier a person acts with: L0 without a linked human; with one, the identity records must bind it to the
 * actor (otherwise 403 LINKED_HUMAN_NOT_BOUND, so nobody borrows an admin's or an approver's id), and its recorded
 * tier applies when `verified`. A signed request and a page's call alike.
 */
export async function boundHumanTier(
  findBoundTier: FindBoundTier,
  actorId: string,
  linkedHumanId: string | undefined,
  verified: boolean,
): Promise<HumanTier> {
  if (!linkedHumanId) return 'L0';
  const tier = await findBoundTier(actorId, linkedHumanId);
  if (!tier) throw appError('LINKED_HUMAN_NOT_BOUND');
  return verified ? tier : 'L0';
}

/** A per-actor budget: the counter's key, the policy the answers name, the limit a minute. */
export interface ActorBudget {
  key: string;
  policy: BudgetPolicy;
  perMinute: number;
}

/**
 * The budget of a person's writes (RATE_LIMIT_HUMAN_WRITES_PER_MINUTE): one counter per actor, whichever way the
 * write comes, a signed request of the API or a form of the site or the console.
 */
export const humanWriteBudget = (config: Pick<Config, 'rateLimits'>, actorId: string): ActorBudget => ({
  key: `human:${actorId}`,
  policy: 'human-writes',
  perMinute: config.rateLimits.humanWritesPerMinute,
});

/**
 * Counts one write done in process (a page's form: no signature, so no nonce to claim) against `budget`, and
 * refuses it past the limit with the 429 a signed write gets.
 */
export async function countWrite(store: RateLimitStore, budget: ActorBudget): Promise<void> {
  refuseOverLimit(await store.hit(budget.key, MINUTE_MS), budget.perMinute);
}
