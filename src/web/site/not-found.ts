import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_LANG } from '../../platform/i18n/index.js';
import { LANGS } from '../../platform/schemas.js';
import { SITE_HEADERS } from './assets.js';
import { sendPage } from './render.js';
import { ErrorPage } from './views/error.js';

/** Paths of the JSON API and the operators' endpoints: an unknown path under them answers the JSON error body. */
const API_PREFIXES = ['/v1', '/healthz', '/readyz', '/metrics', '/docs', '/openapi.json'];

/** Any path that starts with an API prefix (`/healthz%00`, `/v1foo` too): no site page is named like one. */
const underApi = (path: string) => API_PREFIXES.some((prefix) => path.startsWith(prefix));

/**
 * Whether a path is the API's, however it is spelled: routes match exactly, so `/V1/feed`, `//v1/feed` or
 * `/./healthz` are unknown paths, and they are the API's too. The path is tested as sent (lowercased, slashes
 * collapsed) and with its dot segments resolved; either under an API prefix makes it an API path.
 */
function isApiPath(path: string): boolean {
  const collapsed = path.toLowerCase().replace(/\/{2,}/g, '/');
  let resolved: string;
  try {
    resolved = new URL(collapsed, 'http://site.invalid').pathname;
  } catch {
    return true;
  }
  return underApi(collapsed) || underApi(resolved);
}

/** A client that asks for JSON and not for HTML (an API client guessing a path) gets JSON on any path. */
function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (!accept) return true;
  return /text\/html|\*\/\*/.test(accept);
}

/**
 * The 404 of an unknown path: an HTML page in the reader's language for a GET or HEAD
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
