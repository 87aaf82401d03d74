import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_LANG } from '../../platform/i18n/index.js';
import { LANGS } from '../../platform/schemas.js';
import { SITE_HEADERS } from './assets.js';
import { sendPage } from './render.js';
import { ErrorPage } from './views/error.js';

/** Paths of the JSON API and the operators' endpoints: an unknown path under them answers the JSON error body. */
const API_PREFIXES = ['/v1', '/healthz', '/readyz', '/metrics', '/docs', '/openapi.json'];

const isApiPath = (path: string) => API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/** A client that asks for JSON and not for HTML (an API client guessing a path) gets JSON on any path. */
function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (!accept) return true;
  return /text\/html|\*\/\*/.test(accept);
}

/**
 * The 404 of an unknown path (docs/site.md, "Errors"): an HTML page in the reader's language for a GET or HEAD
 * of a browser (Accept absent, or naming text/html or anything) on a path outside the API's prefixes; undefined
 * otherwise, and the JSON error body answers, as it always has for the API.
 */
export function siteNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  const path = request.url.split('?')[0]!;
  if ((request.method !== 'GET' && request.method !== 'HEAD') || isApiPath(path) || !wantsHtml(request)) return undefined;
  const lang = LANGS.find((l) => l === (request.query as Record<string, unknown> | undefined)?.lang) ?? DEFAULT_LANG;
  reply.code(404).headers(SITE_HEADERS);
  return sendPage(reply, ErrorPage, { lang, status: 404, requestId: request.id });
}
