import type { FastifyReply } from 'fastify';
import { h, type FunctionComponent } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { ANONYMOUS, PageNow, VisitorContext, type Visitor } from './visitor.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the site's page is for: anonymous on public pages (one body for everyone), the reader on theirs. */
    visitor?: Visitor;
    /** The site's clock when the request came in: the "now" of the page's relative times. */
    pageNow?: number;
  }
}
import { BaseUrl } from './views/head.js';

/**
 * A page as a complete HTML document, rendered for the request's visitor. preact-render-to-string escapes every
 * text and attribute value it is given; nothing in the site's views bypasses it (no dangerouslySetInnerHTML).
 */
export function sendPage<P extends object>(reply: FastifyReply, view: FunctionComponent<P>, props: NoInfer<P>): FastifyReply {
  const page = h(
    VisitorContext.Provider,
    { value: reply.request.visitor ?? ANONYMOUS },
    h(
      PageNow.Provider,
      { value: reply.request.pageNow ?? Date.now() },
      h(BaseUrl.Provider, { value: reply.siteBaseUrl ?? '' }, h(view, props)),
    ),
  );
  return reply.type('text/html; charset=utf-8').send(`<!doctype html>${renderToString(page)}`);
}
