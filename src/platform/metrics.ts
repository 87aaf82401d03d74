import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AppContext } from './context.js';
import type { PlatformTables } from './tables.js';

/** Prometheus metrics of one app instance (its own registry, so several apps in one process stay apart). */
export function createMetrics(ctx: AppContext<PlatformTables>) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = requestMetrics(registry);
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

/** The latency buckets of `http_request_duration_seconds`, in seconds. */
const REQUEST_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * `http_requests_total` and `http_request_duration_seconds` by method, route pattern (or "unmatched") and status:
 * the app's onResponse hook records every response. The series are bounded as the labels are.
 */
function requestMetrics(registry: Registry) {
  const labelNames = ['method', 'route', 'status'] as const;
  const total = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames,
    buckets: REQUEST_DURATION_BUCKETS,
    registers: [registry],
  });
  return {
    /** Counts one response; a duration that is not a finite number at least 0 counts as 0. */
    record(method: string, route: string, status: number, seconds: number): void {
      const labels = { method, route, status: String(status) };
      total.inc(labels);
      duration.observe(labels, Number.isFinite(seconds) && seconds > 0 ? seconds : 0);
    },
  };
}
