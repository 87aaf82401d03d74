import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { AppContext } from './context.js';
import { registerRequestMetrics } from './request-tallies.js';

/** Prometheus metrics of one app instance (its own registry, so several apps in one process stay apart). */
export function createMetrics(ctx: AppContext) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // every response is counted into plain numbers (src/platform/request-tallies.ts), read when /metrics is scraped
  const requests = registerRequestMetrics(registry);
  const signatureFailures = new Counter({
    name: 'signature_failures_total',
    help: 'Rejected signed requests by scheme and error code',
    labelNames: ['scheme', 'code'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'nonce_store_up',
    help: '1 when the nonce store answers a ping, else 0',
    labelNames: ['driver'] as const,
    registers: [registry],
    async collect() {
      const up = await ctx.nonceStore
        .ping()
        .then(() => 1)
        .catch(() => 0);
      this.set({ driver: ctx.nonceStore.driver }, up);
    },
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections by state',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const s = ctx.database.poolStats();
      this.set({ state: 'total' }, s.total);
      this.set({ state: 'idle' }, s.idle);
      this.set({ state: 'waiting' }, s.waiting);
    },
  });
  new Gauge({
    name: 'db_up',
    help: '1 when the database answers select 1 within a second, else 0',
    registers: [registry],
    async collect() {
      this.set(
        await ctx.database
          .ping(1_000)
          .then(() => 1)
          .catch(() => 0),
      );
    },
  });
  return { registry, requests, signatureFailures };
}

export type Metrics = ReturnType<typeof createMetrics>;
