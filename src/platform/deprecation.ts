import type { FastifyInstance, onSendHookHandler, RouteOptions } from 'fastify';
import { hookList } from './route-hooks.js';

/**
 * A route being retired (docs/api-conventions.md, "Versions and deprecation"). Every answer of the route carries
 * `Deprecation: @<epoch seconds of since>` (RFC 9745), `Sunset: <HTTP date>` (RFC 8594) when a sunset is set, and
 * `Link: <link>; rel="deprecation"`; its OpenAPI operation is `deprecated: true`.
 */
export interface RouteDeprecation {
  /** When the route is deprecated: an ISO-8601 date or time (`2027-03-01` is that day's midnight UTC). */
  since: string;
  /** When it stops answering, at least MIN_NOTICE_DAYS after `since`; none: it stays within /v1. */
  sunset?: string;
  /** What clients read about it and what replaces it: an absolute http(s) URL or a path of this service. */
  link: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route is being retired: its answers say so in their headers (src/platform/deprecation.ts). */
    deprecated?: RouteDeprecation;
  }
}

/** The shortest time between a route's deprecation and its sunset that the policy allows. */
export const MIN_NOTICE_DAYS = 180;
const DAY_MS = 86_400_000;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;
/** What a Link target may be: a URL or a path without the characters that would end it inside the header. */
const LINK_TARGET = /^(https?:\/\/[^\s<>"]+|\/[^\s<>"]*)$/;

function instant(route: RouteOptions, name: string, text: string): number {
  const at = ISO_DATE.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(at)) throw new Error(`${route.method} ${route.url}: config.deprecated.${name} is not an ISO-8601 date: ${text}`);
  return at;
}

/** The header values of a deprecation. */
export interface DeprecationHeaders {
  deprecation: string;
  sunset?: string;
  link: string;
}

/** The header values of a route's deprecation, checked against the policy (a route that breaks it does not start). */
export function deprecationHeaders(route: RouteOptions, deprecation: RouteDeprecation): DeprecationHeaders {
  const since = instant(route, 'since', deprecation.since);
  let sunset: string | undefined;
  if (deprecation.sunset !== undefined) {
    const at = instant(route, 'sunset', deprecation.sunset);
    if (at - since < MIN_NOTICE_DAYS * DAY_MS)
      throw new Error(
        `${route.method} ${route.url}: config.deprecated.sunset must be at least ${MIN_NOTICE_DAYS} days after since (docs/api-conventions.md, "Versions and deprecation")`,
      );
    // an IMF-fixdate, the form of an HTTP date: `Wed, 01 Sep 2027 00:00:00 GMT`
    sunset = new Date(at).toUTCString();
  }
  if (!LINK_TARGET.test(deprecation.link))
    throw new Error(`${route.method} ${route.url}: config.deprecated.link must be an http(s) URL or a path: ${deprecation.link}`);
  return { deprecation: `@${Math.floor(since / 1000)}`, ...(sunset ? { sunset } : {}), link: `<${deprecation.link}>; rel="deprecation"` };
}

/**
 * Attaches the deprecation headers to the routes whose config says `deprecated` (an onSend hook of theirs, so other
 * routes run nothing), and marks their OpenAPI operations deprecated. Register it before the routes. The headers are
 * set on every answer, errors and cached reads included: a client learns of the retirement from whatever it gets.
 */
export function registerDeprecations(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const deprecation = route.config?.deprecated;
    if (!deprecation) return;
    const { deprecation: since, sunset, link } = deprecationHeaders(route, deprecation);
    route.schema = { ...route.schema, deprecated: true };
    const announce: onSendHookHandler = (_request, reply, payload, done) => {
      reply.header('deprecation', since);
      if (sunset) reply.header('sunset', sunset);
      // a Link the route set itself is kept: the relation is added to it
      const existing = reply.getHeader('link');
      const links = existing === undefined ? '' : [existing].flat().join(', ');
      if (!links.includes(link)) reply.header('link', links ? `${links}, ${link}` : link);
      done(null, payload);
    };
    route.onSend = [...hookList(route.onSend), announce];
  });
}
