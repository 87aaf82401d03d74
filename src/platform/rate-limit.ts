import { rateLimited } from './errors.js';
import type { RateLimitStore } from './rate-limit-store.js';

const MINUTE_MS = 60_000;

/** Counts one request against `key` and throws 429 with retryAfterSeconds past `perMinute`. */
export async function enforceRateLimit(store: RateLimitStore, key: string, perMinute: number): Promise<void> {
  const hit = await store.hit(key, MINUTE_MS);
  if (hit.count > perMinute) throw rateLimited(Math.max(1, Math.ceil(hit.resetInMs / 1000)));
}
