import type { FastifyPluginAsync } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { Gauge } from 'prom-client';
import type { AppContext } from '../../platform/context.js';
import type { Metrics } from '../../platform/metrics.js';
import { createWebhookDispatcher } from './dispatcher.js';
import { deliveryCounts } from './repository.js';
import { createWebhookWorker } from './worker.js';
import type { DeliveryTables } from '../tables.js';

/**
 * Webhook deliveries inside the service: the delivery counts in /metrics and, unless WEBHOOK_WORKER=off, the
 * delivery worker (started when the app is ready, stopped when it closes). No routes: operators read the
 * delivery log with `npm run webhooks:deliveries`.
 */
export const webhooksModule: FastifyPluginAsync<{ ctx: AppContext<DeliveryTables>; metrics: Metrics }> = async (app, { ctx, metrics }) => {
  new Gauge({
    name: 'webhook_deliveries',
    help: 'Webhook deliveries by state: pending (not tried yet), failed (retrying), delivered, dead',
    labelNames: ['state'] as const,
    registers: [metrics.registry],
    // a database that does not answer within a second leaves the last counts (db_up says why): /metrics
    // itself keeps answering during an outage
    async collect() {
      const counts = await Promise.race([deliveryCounts(ctx.database.db), sleep(1_000, null, { ref: false })]).catch(() => null);
      if (counts) for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
    },
  });

  const config = ctx.config.webhooks;
  if (config.worker !== 'in-process' || config.endpoints.length === 0) return;
  const dispatcher = createWebhookDispatcher({ allowPrivateAddresses: config.allowPrivateAddresses, timeoutMs: config.timeoutMs });
  const worker = createWebhookWorker({ transactor: ctx.transactor, config, clock: ctx.clock, dispatcher, log: app.log });
  app.addHook('onReady', async () => worker.start());
  // preClose runs before every onClose hook, so the worker is stopped before the database closes
  app.addHook('preClose', async () => {
    await worker.stop();
    await dispatcher.close();
  });
};
