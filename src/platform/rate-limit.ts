import type { FastifyReply } from 'fastify';
import { rateLimited } from './errors.js';
import type { RateLimitHit, RateLimitStore } from './rate-limit-store.js';

/** The window of every per-minute limit. */
export const MINUTE_MS = 60_000;

/**
 * The names of the budgets a request can count against, as the `RateLimit` and `RateLimit-Policy` response fields
 * name them (docs/api-conventions.md, "Rate limits").
 */
export type BudgetPolicy = 'reads' | 'human-writes' | 'agent-writes' | 'joins' | 'site-logins' | 'site-forms';

/**
 * The IETF RateLimit fields of a budget (draft-ietf-httpapi-ratelimit-headers, Structured Field lists of one
 * item): `RateLimit-Policy: "<policy>";q=<quota>;w=<window seconds>` and `RateLimit: "<policy>";r=<remaining>;t=<seconds
 * until the window resets>`.
 */
export function rateLimitFields(policy: BudgetPolicy, perMinute: number, hit: RateLimitHit): { policy: string; remaining: string } {
  return {
    policy: `"${policy}";q=${perMinute};w=${MINUTE_MS / 1000}`,
    remaining: `"${policy}";r=${Math.max(0, perMinute - hit.count)};t=${Math.max(0, Math.ceil(hit.resetInMs / 1000))}`,
  };
}

/**
 * Tells the client its budget (the RateLimit fields, on the answer whatever it is, a 429 included), then throws
 * 429 with retryAfterSeconds when the hit is past `perMinute`.
 */
export function chargeBudget(reply: FastifyReply, policy: BudgetPolicy, perMinute: number, hit: RateLimitHit): void {
  const fields = rateLimitFields(policy, perMinute, hit);
  void reply.header('ratelimit-policy', fields.policy).header('ratelimit', fields.remaining);
  refuseOverLimit(hit, perMinute);
}

/** Counts one request against `key` and throws 429 with retryAfterSeconds past `perMinute`; the answer tells the budget. */
export async function enforceRateLimit(
  store: RateLimitStore,
  key: string,
  perMinute: number,
  reply: FastifyReply,
  policy: BudgetPolicy,
): Promise<void> {
  chargeBudget(reply, policy, perMinute, await store.hit(key, MINUTE_MS));
}

/** Throws 429 with retryAfterSeconds when a hit counted in a one-minute window is past `perMinute`. */
export function refuseOverLimit(hit: RateLimitHit, perMinute: number): void {
  if (hit.count > perMinute) throw rateLimited(Math.max(1, Math.ceil(hit.resetInMs / 1000)));
}
