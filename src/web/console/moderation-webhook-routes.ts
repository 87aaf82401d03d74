import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DeliveryLog, DeliveryLogQuery } from '../../delivery/webhooks/delivery-log.js';
import { sendPage } from '../site/render.js';
import { enter, HIDDEN, type ConsoleDeps } from './gate.js';
import { DeliveriesPageQuery } from './moderation-forms.js';
import { DeliveriesPage } from './views/moderation-webhooks.js';

export interface WebhookLogDeps extends ConsoleDeps {
  deliveryLog(query: DeliveryLogQuery): Promise<DeliveryLog>;
}

/**
 * The webhook delivery log of corrections and retractions, in the moderation area (content admins). It has no
 * API route: the composition root gives the function that reads it.
 */
export const moderationWebhookRoutes: FastifyPluginAsyncTypebox<WebhookLogDeps> = async (app, options) => {
  const { deliveryLog, ...deps } = options;

  app.get('/console/moderation/webhooks', { schema: { ...HIDDEN, querystring: DeliveriesPageQuery } }, async (request, reply) => {
    const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'moderation');
    if (!visit) return reply;
    const state = request.query.state || undefined;
    const eventId = request.query.event || undefined;
    const log = await deliveryLog({
      limit: 20,
      ...(state ? { state } : {}),
      ...(eventId ? { eventId } : {}),
      ...(request.query.before ? { before: request.query.before } : {}),
    });
    return sendPage(reply, DeliveriesPage, {
      lang: visit.lang,
      areas: visit.areas,
      log,
      state: state ?? null,
      eventId: eventId ?? null,
      before: request.query.before || null,
    });
  });
};
