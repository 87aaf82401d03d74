import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HumanActor } from '../../../sdk/index.js';
import type { Lang } from '../../platform/i18n/index.js';
import type { CallResult } from './calls.js';
import { href } from './links.js';
import { readerOf, type Flash, type SiteReader } from './session.js';

/** An origin to resolve a target against: only whether the result stays on it matters, so it is no real host. */
const SITE = 'https://site.invalid';
/**
 * Refused anywhere in a target: a backslash (browsers read it as `/`), ASCII controls and whitespace (browsers
 * drop TAB, LF and CR from a URL, so `/<TAB>/host` becomes `//host`), and Unicode spaces, separators, format
 * characters and lone surrogates, which no address of this site holds.
 */
const REFUSED = /[\\\p{Cc}\p{Cf}\p{Cs}\p{Z}]/u;
/**
 * Refused in the path percent-encoded: a control, a space, `/` or `\`. A browser keeps them encoded, but a proxy
 * or server that decodes the path before redirecting again would turn them into what is refused above.
 */
const ENCODED = /%(?:[01][0-9a-f]|2f|5c|7f|20)/i;

/**
 * `target` as a path of this site (its path, query and fragment, normalized by the WHATWG URL parser as a
 * browser would read it), or null when it is anything else: empty, not starting with one `/`, with a scheme
 * or a host, a character refused above, or a path that resolves to `//host` (`/.//evil.example`).
 */
export function sitePath(target: string | undefined): string | null {
  if (!target || !target.startsWith('/') || target.startsWith('//') || REFUSED.test(target)) return null;
  let url: URL;
  try {
    url = new URL(target, SITE);
  } catch {
    return null;
  }
  if (url.origin !== SITE || ENCODED.test(url.pathname)) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('/') && !path.startsWith('//') ? path : null;
}

/**
 * The page a form returns to: a path of this site only (sitePath), else the home page. Every redirect of the
 * site's and the console's forms goes through it: a redirect never leaves the site, whatever a form or a link says.
 */
export function safeBack(back: string | undefined, lang: Lang): string {
  return sitePath(back) ?? href('/', lang);
}

/** The actor the site signs as for its logged-in reader: their account, bound to their linked human. */
export const actorOf = (reader: SiteReader): HumanActor => ({
  actorId: reader.accountId,
  verified: true,
  linkedHumanId: reader.linkedHumanId,
});

/** The flash of an API answer: `done` when it succeeded, else the refusal (its code, worded by the page). */
export function flashOf<T>(result: CallResult<T>, done: (body: T) => Flash): Flash {
  if (result.ok) return done(result.body);
  const { code, retryAfterSeconds, params } = result.failure;
  return {
    kind: 'refused',
    message: code,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    ...(params ? { params } : {}),
  };
}

/** Post, redirect, get: the form's outcome goes into the session and the browser goes back (303). */
export function finish(request: FastifyRequest, reply: FastifyReply, flash: Flash, back: string, lang: Lang = 'en') {
  request.session.flash = flash;
  // a login the service no longer honours ends here too: the person logs in again and comes back
  if (flash.kind === 'refused' && flash.message === 'LINKED_HUMAN_NOT_BOUND') {
    delete request.session.reader;
    return reply.redirect(href('/login', lang, { next: back }), 303);
  }
  return reply.redirect(safeBack(back, lang), 303);
}

/** The logged-in reader, or a redirect to the login page that comes back to `back`. */
export function requireReader(request: FastifyRequest, reply: FastifyReply, lang: Lang, back: string, now: number) {
  const reader = readerOf(request, now);
  if (!reader) {
    void reply.redirect(href('/login', lang, { next: back }), 303);
    return null;
  }
  return reader;
}
