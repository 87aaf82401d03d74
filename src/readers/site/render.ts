import type { FastifyReply } from 'fastify';
import { h, type FunctionComponent } from 'preact';
import { renderToString } from 'preact-render-to-string';

/**
 * A page as a complete HTML document. preact-render-to-string escapes every text and attribute value it is
 * given; nothing in the site's views bypasses it (no dangerouslySetInnerHTML).
 */
export function sendPage<P extends object>(reply: FastifyReply, view: FunctionComponent<P>, props: NoInfer<P>): FastifyReply {
  return reply.type('text/html; charset=utf-8').send(`<!doctype html>${renderToString(h(view, props))}`);
}
