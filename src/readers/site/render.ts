import type { FastifyReply } from 'fastify';
import { h, type FunctionComponent } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { BaseUrl } from './views/head.js';

/**
 * A page as a complete HTML document. preact-render-to-string escapes every text and attribute value it is
 * given; nothing in the site's views bypasses it (no dangerouslySetInnerHTML).
 */
export function sendPage<P extends object>(reply: FastifyReply, view: FunctionComponent<P>, props: NoInfer<P>): FastifyReply {
  const page = h(BaseUrl.Provider, { value: reply.siteBaseUrl ?? '' }, h(view, props));
  return reply.type('text/html; charset=utf-8').send(`<!doctype html>${renderToString(page)}`);
}
