import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Clock } from '../../platform/clock.js';
import { LangParam } from '../../platform/i18n/index.js';
import { LangQuery } from './schemas.js';
import { finish, requireReader } from './form-replies.js';
import { href } from './links.js';
import type { SiteNotifications } from './notifications.js';
import { sendPage } from './render.js';
import { sameOriginCheck } from './session.js';
import { NotificationsPage } from './views/notifications.js';

const FeedForm = Type.Object({ _csrf: Type.Optional(Type.String()), lang: LangParam, back: Type.Optional(Type.String()) });
const TokenParams = Type.Object({ token: Type.String({ pattern: '^[A-Za-z0-9_-]{32}$' }) }, { additionalProperties: false });

export interface NotificationRoutesOptions {
  notifications: SiteNotifications;
  clock: Clock;
  baseUrl: string;
  prepare(request: FastifyRequest, reply: FastifyReply): void;
}

/**
 * A reader's notifications: their page (which marks them seen once shown), a new address for their private Atom
 * feed (the old one stops working), and the feed itself at that address (no login: the address is the secret).
 */
export const notificationRoutes: FastifyPluginAsyncTypebox<NotificationRoutesOptions> = async (app, options) => {
  const { notifications, clock, baseUrl } = options;
  const guarded = { preHandler: [sameOriginCheck, (app as FastifyInstance).csrfProtection] };

  app.get('/me/notifications', { schema: { hide: true, querystring: LangQuery } }, async (request, reply) => {
    const lang = request.query.lang ?? 'en';
    const reader = requireReader(request, reply, lang, href('/me/notifications', lang), clock.now());
    if (!reader) return reply;
    const [items, token] = await Promise.all([notifications.list(reader.accountId), notifications.feedToken(reader.accountId)]);
    // shown: what was new (marked on this page) is now seen; the masthead's count starts again from here
    await notifications.markSeen(reader.accountId);
    if (request.visitor) request.visitor.unread = 0;
    options.prepare(request, reply);
    return sendPage(reply, NotificationsPage, { lang, items, feedUrl: `${baseUrl}/notifications/${token}.atom?lang=${lang}` });
  });

  app.post('/me/notifications/feed', { ...guarded, schema: { hide: true, body: FeedForm } }, async (request, reply) => {
    const lang = request.body.lang ?? 'en';
    const back = href('/me/notifications', lang);
    const reader = requireReader(request, reply, lang, back, clock.now());
    if (!reader) return reply;
    await notifications.renewFeedToken(reader.accountId);
    return finish(request, reply, { kind: 'done', message: 'site.notifications.renewed' }, back, lang);
  });

  app.get('/notifications/:token.atom', { schema: { hide: true, params: TokenParams, querystring: LangQuery } }, async (request, reply) => {
    const atom = await notifications.atom(request.params.token, request.query.lang ?? 'en');
    if (atom === null) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    return reply.header('cache-control', 'private, no-store').type('application/atom+xml; charset=utf-8').send(atom);
  });
};
