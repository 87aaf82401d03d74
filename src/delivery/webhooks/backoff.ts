/**
 * Retry schedule of failed deliveries (docs/webhooks.md, "Retry schedule"): attempt n (1-based) failed, the next one waits
 * min(cap, base × 2^(n-1)), with "equal jitter" (a random half of it added to the other half), so that a
 * receiver coming back is not hit by every delivery at once. A Retry-After answer is honoured when it asks
 * for longer. Pure: `random` is injected.
 */
export function retryDelayMs(attempt: number, baseMs: number, capMs: number, random: () => number): number {
  const exp = Math.min(capMs, baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 40));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/** Retry-After as seconds or an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
