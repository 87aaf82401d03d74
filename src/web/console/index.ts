import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DeliveryLog, DeliveryLogQuery } from '../../delivery/webhooks/delivery-log.js';
import type { AuditService } from '../../platform/audit/service.js';
import type { ChainVerdict } from '../../platform/audit/verify-chain.js';
import { sendPage } from '../site/render.js';
import type { Flash } from '../site/session.js';
import { CONSOLE_ASSETS } from './assets.js';
import { allowlistKeyOf, consoleActor } from './access.js';
import { controlPlaneRoutes } from './control-plane-routes.js';
import { AuditQuery, ConsoleQuery, PlainConsoleForm } from './forms.js';
import { actIn, enter, formRoute, HIDDEN, type ConsoleDeps } from './gate.js';
import { governanceRoutes, type HealthSignals } from './governance-routes.js';
import { integrityRoutes } from './integrity-routes.js';
import { rewardsClaimsRoutes } from './rewards-claims-routes.js';
import { rewardsMoneyRoutes } from './rewards-money-routes.js';
import { rewardsPolicyRoutes } from './rewards-policy-routes.js';
import { rewardsReviewRoutes } from './rewards-review-routes.js';
import { rewardsSettlementRoutes } from './rewards-settlement-routes.js';
import { moderationRoutes } from './moderation-routes.js';
import { moderationStoryRoutes } from './moderation-story-routes.js';
import { moderationWebhookRoutes } from './moderation-webhook-routes.js';
import { auditLogPage } from './audit-log.js';
import { ConsoleHomePage } from './views/home.js';
import { waitingFor, type WaitingSources } from './waiting.js';

declare module 'fastify' {
  interface Session {
    /** The last audit chain verification this person ran, shown once on the audit page. */
    auditVerdict?: ChainVerdict & { at: string };
  }
}

export interface ConsoleOptions extends ConsoleDeps {
  /** The audit chain: its rows, and the walk that verifies it (the same check as `npm run audit:verify`). */
  audit: AuditService;
  /** The governance health signals measured now (what evaluate would see). */
  healthSignals: HealthSignals;
  /** The webhook delivery log (the same rows as `npm run webhooks:deliveries`). */
  deliveryLog(query: DeliveryLogQuery): Promise<DeliveryLog>;
  /** What waits for an admin, each counted by the service that owns it (the home's list). */
  waiting: WaitingSources;
}

/**
 * The newsroom console under /console, for the people on the allowlists: registered inside the reader site's
 * plugin, so it has the site's login, sessions, CSRF protection and security headers. Every console page is
 * personal: never cached (`no-store`), never indexed (`X-Robots-Tag` and the robots meta).
 */
export const consoleModule: FastifyPluginAsyncTypebox<ConsoleOptions> = async (app, options) => {
  const { audit, healthSignals, deliveryLog, waiting, ...deps } = options;
  const actAudit = actIn(deps, 'audit');
  const guarded = formRoute(app);

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/console')) {
      reply.header('cache-control', 'no-store');
      reply.header('x-robots-tag', 'noindex, nofollow');
    }
    return payload;
  });

  app.get(CONSOLE_ASSETS.css.path, { schema: HIDDEN }, async (_request, reply) =>
    reply.type(CONSOLE_ASSETS.css.type).header('cache-control', 'public, max-age=31536000, immutable').send(CONSOLE_ASSETS.css.body),
  );

  app.get('/console', { schema: { ...HIDDEN, querystring: ConsoleQuery } }, async (request, reply) => {
    const visit = enter(deps, request, reply, request.query.lang ?? 'en');
    if (!visit) return reply;
    const items = await waitingFor(waiting, visit.roles, visit.areas, consoleActor(visit.reader));
    return sendPage(reply, ConsoleHomePage, {
      lang: visit.lang,
      areas: visit.areas,
      roles: visit.roles,
      allowlistKey: allowlistKeyOf(visit.reader),
      waiting: items,
    });
  });

  app.get('/console/audit', { schema: { ...HIDDEN, querystring: AuditQuery } }, async (request, reply) => {
    const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'audit');
    if (!visit) return reply;
    const verdict = request.session.auditVerdict ?? null;
    if (verdict) delete request.session.auditVerdict;
    return auditLogPage(reply, { audit, visit, query: request.query, verdict, now: deps.clock.now() });
  });

  app.post('/console/audit/verify', { ...guarded, schema: { ...HIDDEN, body: PlainConsoleForm } }, (request, reply) =>
    actAudit<ChainVerdict>(
      request,
      reply,
      request.body,
      async (visit) => {
        const verdict = await audit.verify(visit.actor);
        request.session.auditVerdict = { ...verdict, at: new Date(deps.clock.now()).toISOString() };
        return { ok: true, status: 200, body: verdict };
      },
      (verdict): Flash =>
        verdict.ok
          ? { kind: 'done', message: 'console.audit.intact', params: { count: verdict.events } }
          : { kind: 'refused', message: 'CONSOLE_AUDIT_BROKEN', params: { seq: verdict.broken.seq } },
    ),
  );

  await app.register(moderationRoutes, deps);
  await app.register(moderationStoryRoutes, deps);
  await app.register(moderationWebhookRoutes, { ...deps, deliveryLog });
  await app.register(governanceRoutes, { ...deps, healthSignals });
  await app.register(controlPlaneRoutes, deps);
  await app.register(integrityRoutes, deps);
  await app.register(rewardsPolicyRoutes, deps);
  await app.register(rewardsSettlementRoutes, deps);
  await app.register(rewardsReviewRoutes, deps);
  await app.register(rewardsClaimsRoutes, deps);
  await app.register(rewardsMoneyRoutes, deps);
};
