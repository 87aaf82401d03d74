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
import { pageError, sameOriginCheck } from './session.js';
import { NotificationsPage } from './views/notifications.js';

const FeedForm = Type.Object({ _csrf: Type.Optional(Type.String()), lang: LangParam, back: Type.Optional(Type.String()) });
const FeedParams = Type.Object({ file: Type.String({ maxLength: 64 }) }, { additionalProperties: false });
/** A feed's file name: its token (24 random bytes, base64url) and `.atom`. */
const FEED_FILE = /^([A-Za-z0-9_-]{32})\.atom$/;

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

  // one path parameter for the whole file name: a token is checked here, so that any other name is the site's 404 page
  app.get('/notifications/:file', { schema: { hide: true, params: FeedParams, querystring: LangQuery } }, async (request, reply) => {
    const lang = request.query.lang ?? 'en';
    const token = FEED_FILE.exec(request.params.file)?.[1];
    const atom = token ? await notifications.atom(token, lang) : null;
    if (atom === null) throw pageError(404, 'no notification feed has this address');
    return reply.header('cache-control', 'private, no-store').type('application/atom+xml; charset=utf-8').send(atom);
  });
};
