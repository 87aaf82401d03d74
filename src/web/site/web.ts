import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import fp from 'fastify-plugin';
import { notFound } from '../../platform/errors.js';
import { RoomSlug } from '../../newsroom/common/schemas.js';
import { pageEtag } from './page-etag.js';
import { LangQuery } from './schemas.js';
import type { SyndicationService } from './syndication.js';

declare module 'fastify' {
  interface FastifyReply {
    /** PUBLIC_BASE_URL, on the reader site's replies: the absolute URLs of a page (canonical, Open Graph). */
    siteBaseUrl?: string;
  }
}

const NoQuery = Type.Object({}, { additionalProperties: false });
const ATOM = 'application/atom+xml; charset=utf-8';
const XML = 'application/xml; charset=utf-8';

/**
 * What the web expects of the site besides its pages: ETags and
 * 304 on every site answer, the base URL the pages' absolute links use, Atom feeds, the sitemap and
 * robots.txt. Registered inside the site's plugin (fastify-plugin: its hook and routes belong to the site's
 * context, with the site's headers and HTML error pages), so the JSON API gets no ETag.
 */
const plugin: FastifyPluginAsyncTypebox<{ service: SyndicationService }> = async (app, { service }) => {
  const list = { auth: { kind: 'public' as const }, readCache: true };
  const hide = { hide: true };
  app.decorateReply('siteBaseUrl', service.baseUrl);
  app.addHook('onSend', pageEtag);

  app.get('/feed.atom', { config: list, schema: { ...hide, querystring: LangQuery } }, async (request, reply) =>
    reply.type(ATOM).send(await service.atom(request.query.lang ?? 'en', undefined)),
  );

  app.get(
    '/rooms/:room/feed.atom',
    { config: list, schema: { ...hide, params: Type.Object({ room: RoomSlug }), querystring: LangQuery } },
    async (request, reply) => reply.type(ATOM).send(await service.atom(request.query.lang ?? 'en', request.params.room)),
  );

  app.get('/robots.txt', { config: list, schema: { ...hide, querystring: NoQuery } }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').send(service.robots()),
  );

  app.get('/sitemap.xml', { config: list, schema: { ...hide, querystring: NoQuery } }, async (_request, reply) =>
    reply.type(XML).send(await service.sitemapIndex()),
  );

  app.get('/sitemaps/pages.xml', { config: list, schema: { ...hide, querystring: NoQuery } }, async (_request, reply) =>
    reply.type(XML).send(service.sitemapPages()),
  );

  app.get(
    '/sitemaps/stories-:n.xml',
    { config: list, schema: { ...hide, params: Type.Object({ n: Type.Integer({ minimum: 1, maximum: 100_000 }) }), querystring: NoQuery } },
    async (request, reply) => {
      const body = await service.sitemapStories(request.params.n);
      if (body === null) throw notFound('sitemap');
      return reply.type(XML).send(body);
    },
  );
};

export const siteWeb = fp(plugin, { name: 'site-web' });
