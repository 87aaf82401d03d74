import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `probe` until it answers true; throws after `timeoutMs` (a harness bound, never an assertion on time). */
export async function until(probe: () => Promise<boolean>, timeoutMs: number, what: string, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
