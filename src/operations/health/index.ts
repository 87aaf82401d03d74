import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../platform/context.js';
import type { Metrics } from '../../platform/metrics.js';
import { LivenessResponse, ReadinessResponse } from './schemas.js';
import { checkReadiness } from './service.js';

/** Liveness, readiness and Prometheus metrics (behind the operations token). */
export const healthModule: FastifyPluginAsyncTypebox<{ ctx: AppContext; metrics: Metrics }> = async (app, { ctx, metrics }) => {
  app.get(
    '/healthz',
    {
      config: { auth: { kind: 'public' }, rateLimit: false },
      schema: {
        operationId: 'getLiveness',
        tags: ['health'],
        summary: 'Liveness',
        response: { 200: LivenessResponse },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: { auth: { kind: 'public' }, rateLimit: false },
      schema: {
        operationId: 'getReadiness',
        tags: ['health'],
        summary: 'Readiness with each check',
        response: { 200: ReadinessResponse, 503: ReadinessResponse },
      },
    },
    async (_request, reply) => {
      const readiness = await checkReadiness(ctx);
      if (app.lifecycle?.draining) {
        readiness.status = 'not_ready';
        readiness.checks.shutdown = { ok: false, required: true, detail: 'draining: this instance is shutting down' };
      }
      return reply.code(readiness.status === 'ready' ? 200 : 503).send(readiness);
    },
  );

  app.get('/metrics', { config: { auth: { kind: 'operations' }, rateLimit: false }, schema: { hide: true } }, async (_request, reply) => {
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(text);
  });
};
