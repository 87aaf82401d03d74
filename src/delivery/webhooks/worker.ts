import type { DeliveryTables } from '../tables.js';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import type { Config } from '../../config.js';
import type { Clock } from '../../platform/clock.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { newId } from '../../platform/ids.js';
import { retryDelayMs } from './backoff.js';
import {
  claimDueDelivery,
  disableEndpoint,
  isEndpointDisabled,
  recordAttempt,
  type AttemptResult,
  type ClaimedDelivery,
} from './repository.js';
import { sendWebhook } from './sender.js';

/** How long past the request timeout a claim stays leased (the time to record the outcome). */
const LEASE_MARGIN_MS = 5_000;

export interface WebhookWorkerDeps {
  transactor: Transactor<DeliveryTables>;
  config: Config['webhooks'];
  clock: Clock;
  dispatcher: Dispatcher;
  random?: () => number;
  log?: { warn(obj: unknown, msg: string): void };
  /** Names this worker in the delivery log (default host:pid:random). */
  name?: string;
}

/**
 * The delivery worker: `concurrency` independent loops, each claiming one due delivery at a time (row lock,
 * SKIP LOCKED, lease), sending it and recording the outcome. A receiver that never answers holds one loop
 * until the timeout, never the others. Safe with any number of workers on one database: see claimDueDelivery.
 */
export function createWebhookWorker(deps: WebhookWorkerDeps) {
  const { transactor, config, clock, dispatcher } = deps;
  const random = deps.random ?? Math.random;
  const name = deps.name ?? `${hostname()}:${process.pid}:${newId('w').slice(2, 8)}`;
  const policy = { allowPrivateAddresses: config.allowPrivateAddresses, hostAllowlist: config.hostAllowlist };
  let stopping: AbortController | null = null;
  let loops: Promise<void>[] = [];

  async function outcomeOf(
    claimed: ClaimedDelivery,
    now: number,
  ): Promise<Omit<AttemptResult, 'at' | 'worker' | 'startedAt'> & { disable?: boolean }> {
    const base = { deliveryId: claimed.id, attempt: claimed.attempt, statusCode: null, error: null };
    const deadline = claimed.eventCreatedAt.getTime() + config.maxAgeMs;
    if (now >= deadline) return { ...base, outcome: 'DEAD', error: 'maximum age reached (WEBHOOK_MAX_AGE_MS)' };
    if (await isEndpointDisabled(transactor.db, claimed.endpoint))
      return { ...base, outcome: 'DEAD', error: 'endpoint disabled after 410 Gone' };
    if (!config.signingSecret)
      return { ...base, outcome: 'RETRY', error: 'WEBHOOK_SIGNING_SECRET is not set', nextAttemptAt: new Date(now + config.retryCapMs) };
    const result = await sendWebhook({
      endpoint: claimed.endpoint,
      event: { id: claimed.eventId, occurredAt: claimed.occurredAt, payload: claimed.payload },
      secret: config.signingSecret,
      dispatcher,
      policy,
      timeoutMs: config.timeoutMs,
      now,
    });
    switch (result.kind) {
      case 'delivered':
        return { ...base, outcome: 'DELIVERED', statusCode: result.statusCode };
      case 'gone':
        return { ...base, outcome: 'DEAD', statusCode: 410, error: '410 Gone: endpoint disabled', disable: true };
      case 'refused':
        return { ...base, outcome: 'DEAD', error: result.error };
      case 'retry': {
        const after = clock.now();
        const delay = Math.max(retryDelayMs(claimed.attempt, config.retryBaseMs, config.retryCapMs, random), result.retryAfterMs ?? 0);
        const next = after + delay;
        if (next >= deadline)
          return {
            ...base,
            outcome: 'DEAD',
            statusCode: result.statusCode,
            error: `${result.error}; maximum age reached (WEBHOOK_MAX_AGE_MS)`,
          };
        return { ...base, outcome: 'RETRY', statusCode: result.statusCode, error: result.error, nextAttemptAt: new Date(next) };
      }
    }
  }

  /** Claims and attempts one due delivery; false when none is due. */
  async function deliverOne(): Promise<boolean> {
    const now = clock.now();
    const claimed = await withTransaction(transactor, (tx) =>
      claimDueDelivery(tx, new Date(now), new Date(now + config.timeoutMs + LEASE_MARGIN_MS)),
    );
    if (!claimed) return false;
    const { disable, ...outcome } = await outcomeOf(claimed, now);
    const at = new Date(clock.now());
    await withTransaction(transactor, async (tx) => {
      if (disable) await disableEndpoint(tx, claimed.endpoint, '410 Gone', at);
      await recordAttempt(tx, newId('wha'), { ...outcome, startedAt: new Date(now), at, worker: name });
    });
    return true;
  }

  async function loop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let worked = false;
      try {
        worked = await deliverOne();
      } catch (err) {
        deps.log?.warn({ err }, 'webhook delivery step failed; retrying after the poll interval');
      }
      if (!worked) await sleep(config.pollMs, undefined, { signal }).catch(() => undefined);
    }
  }

  return {
    name,
    deliverOne,
    /** Starts the loops (no-op when running). */
    start(): void {
      if (stopping) return;
      stopping = new AbortController();
      const signal = stopping.signal;
      loops = Array.from({ length: config.concurrency }, () => loop(signal));
    },
    /** Stops taking work and waits for the attempts in flight (each bounded by the request timeout). */
    async stop(): Promise<void> {
      stopping?.abort();
      await Promise.all(loops);
      stopping = null;
      loops = [];
    },
  };
}
