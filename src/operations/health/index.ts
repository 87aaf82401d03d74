import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../platform/context.js';
import type { Metrics } from '../../platform/metrics.js';
import { LivenessResponse, ReadinessResponse } from './schemas.js';
import { checkReadiness } from './service.js';
import { answer } from '../../platform/schemas.js';
import type { PlatformTables } from '../../platform/tables.js';

/** Liveness, readiness and Prometheus metrics (behind the operations token). */
export const healthModule: FastifyPluginAsyncTypebox<{ ctx: AppContext<PlatformTables>; metrics: Metrics }> = async (
  app,
  { ctx, metrics },
) => {
  app.get(
    '/healthz',
    {
      config: { auth: { kind: 'public' }, rateLimit: false },
      // its answer is 15 bytes, always under the compression threshold: no compression hook runs on this route
      compress: false,
      schema: {
        operationId: 'getLiveness',
        tags: ['health'],
        summary: 'Liveness',
        description:
          'Answers as long as the process serves HTTP, without touching a store: use it as the liveness probe of an orchestrator. Public, not rate limited. The answer is always `{ status: "ok" }`.',
        response: { 200: answer(LivenessResponse, 'The process is alive and serving requests.') },
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
        description:
          'Checks what the service needs to take traffic: the database, the migrations, Redis (when configured) and the human signing secret, each with its latency and whether it is required. While the instance drains after SIGTERM a `shutdown` check fails so that a load balancer stops sending to it. Public, not rate limited; 503 with the same body when a required check fails.',
        response: {
          200: answer(ReadinessResponse, 'Ready: every required check passed; each check with its latency.'),
          503: ReadinessResponse,
        },
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
