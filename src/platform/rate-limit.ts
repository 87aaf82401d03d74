import { rateLimited } from './errors.js';
import type { RateLimitHit, RateLimitStore } from './rate-limit-store.js';

/** The window of every per-minute limit. */
export const MINUTE_MS = 60_000;

/** Counts one request against `key` and throws 429 with retryAfterSeconds past `perMinute`. */
export async function enforceRateLimit(store: RateLimitStore, key: string, perMinute: number): Promise<void> {
  refuseOverLimit(await store.hit(key, MINUTE_MS), perMinute);
}

/** Throws 429 with retryAfterSeconds when a hit counted in a one-minute window is past `perMinute`. */
export function refuseOverLimit(hit: RateLimitHit, perMinute: number): void {
  if (hit.count > perMinute) throw rateLimited(Math.max(1, Math.ceil(hit.resetInMs / 1000)));
}
