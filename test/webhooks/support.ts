import type { LookupAddress } from 'node:dns';
import { manualClock } from '../../src/platform/clock.js';
import type { Config } from '../../src/config.js';
import { createWebhookDispatcher, type Resolver } from '../../src/delivery/webhooks/dispatcher.js';
import { createWebhookWorker } from '../../src/delivery/webhooks/worker.js';
import { governanceApp, type GovernanceApp } from '../governance/support.js';
import { TEST_OPS_TOKEN, type Env, type TestApp, type TestDatabase } from '../helpers/app.js';
import { newsroomClient } from '../helpers/newsroom.js';
import type { Json } from '../helpers/json.js';

export const WEBHOOK_SECRET = 'whsec-test-0123456789';

/**
 * A newsroom with webhook endpoints whose in-service worker is off (WEBHOOK_WORKER=off): the test runs the
 * worker itself, step by step, on a clock it moves (the retry schedule without waiting).
 */
export async function webhookApp(endpoints: string[], env: Env = {}, shared?: TestDatabase) {
  const g = await governanceApp(
    {
      WEBHOOK_ENDPOINTS: endpoints.join(','),
      WEBHOOK_SIGNING_SECRET: WEBHOOK_SECRET,
      WEBHOOK_WORKER: 'off',
      WEBHOOK_RETRY_BASE_MS: '1000',
      WEBHOOK_RETRY_CAP_MS: '60000',
      WEBHOOK_TIMEOUT_MS: '3000',
      RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '100000',
      ...env,
    },
    shared,
  );
  return { g, news: newsroomClient(g.t.baseUrl) };
}

/** A stepwise worker on the app's database: CA of the test receiver trusted through the test-only option. */
export function stepWorker(g: GovernanceApp, ca: string, overrides: Partial<Config['webhooks']> = {}, resolver?: Resolver) {
  const config = { ...g.t.config.webhooks, allowPrivateAddresses: true, ...overrides };
  const clock = manualClock(Date.now());
  const dispatcher = createWebhookDispatcher({
    allowPrivateAddresses: config.allowPrivateAddresses,
    timeoutMs: config.timeoutMs,
    extraCaForTests: ca,
    ...(resolver ? { resolver } : {}),
  });
  const worker = createWebhookWorker({
    transactor: g.t.app.ctx.transactor,
    config,
    clock,
    dispatcher,
    random: () => 0.5,
    name: 'test-worker',
  });
  const db = g.t.db.database.db;
  return {
    worker,
    clock,
    /**
     * Moves the clock to the earliest due delivery (never back) and attempts it; false when nothing is pending.
     * The clock moves only here, never with the wall clock, so the recorded schedule is exact however slow the
     * machine is.
     */
    async step(): Promise<boolean> {
      const next = await db
        .selectFrom('webhook_deliveries')
        .select('next_attempt_at')
        .where('status', '=', 'PENDING')
        .orderBy('next_attempt_at')
        .executeTakeFirst();
      if (!next) return false;
      clock.set(Math.max(clock.now(), next.next_attempt_at.getTime()));
      return worker.deliverOne();
    },
    close: () => dispatcher.close(),
  };
}

/** Delivers the oldest due webhook of `t` once, trusting the test receiver's CA: true when one was attempted. */
export async function deliverOnce(t: TestApp, ca: string): Promise<boolean> {
  const dispatcher = createWebhookDispatcher({ allowPrivateAddresses: true, timeoutMs: 3000, extraCaForTests: ca });
  const worker = createWebhookWorker({
    transactor: t.app.ctx.transactor,
    config: { ...t.config.webhooks, allowPrivateAddresses: true },
    clock: t.app.ctx.clock,
    dispatcher,
    name: 'test-once',
  });
  try {
    return await worker.deliverOne();
  } finally {
    await dispatcher.close();
  }
}

/** A resolver that plays DNS for the named hosts and asks the system for the rest. */
export function fakeDns(names: Record<string, string>): Resolver {
  return async (hostname) => {
    const address = names[hostname];
    if (address) return [{ address, family: address.includes(':') ? 6 : 4 }] as LookupAddress[];
    const { lookup } = await import('node:dns/promises');
    return lookup(hostname, { all: true });
  };
}

export async function deliveries(g: GovernanceApp) {
  return g.t.db.database.db.selectFrom('webhook_deliveries').selectAll().orderBy('seq').execute();
}

export async function attempts(g: GovernanceApp, deliveryId: string) {
  return g.t.db.database.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').execute();
}

export async function metricsText(g: GovernanceApp): Promise<string> {
  const res = await fetch(`${g.t.baseUrl}/metrics`, { headers: { 'x-operations-token': TEST_OPS_TOKEN } });
  return res.text();
}

export function correct(g: GovernanceApp, storyId: string, note = 'The crossing count was wrong: two, not three.') {
  return g.post<Json>('admin', `/v1/admin/stories/${storyId}/correction`, {
    changes: { summary: 'The port authority voted to add two evening ferry crossings, not three.' },
    note,
  });
}

export function retract(g: GovernanceApp, storyId: string, reason = 'The minutes were forged.') {
  return g.post<Json>('admin', `/v1/admin/stories/${storyId}/retraction`, { reason });
}
