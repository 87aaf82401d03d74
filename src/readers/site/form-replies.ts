import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HumanActor } from '../../../sdk/index.js';
import type { Lang } from '../../platform/i18n/index.js';
import type { ApiResult } from './api.js';
import { href } from './links.js';
import { readerOf, type Flash, type SiteReader } from './session.js';

/**
 * The page a form returns to: a path of this site only (`/…`, never `//host` or a scheme), else the home page.
 * A redirect never leaves the site, whatever a form or a link says.
 */
export function safeBack(back: string | undefined, lang: Lang): string {
  if (back && back.startsWith('/') && !back.startsWith('//') && !back.startsWith('/\\') && !/[\r\n]/.test(back)) return back;
  return href('/', lang);
}

/** The actor the site signs as for its logged-in reader: their account, bound to their linked human. */
export const actorOf = (reader: SiteReader): HumanActor => ({
  actorId: reader.accountId,
  verified: true,
  linkedHumanId: reader.linkedHumanId,
});

/** The flash of an API answer: `done` when it succeeded, else the refusal (its code, worded by the page). */
export function flashOf<T>(result: ApiResult<T>, done: (body: T) => Flash): Flash {
  if (result.ok) return done(result.body);
  const { code, retryAfterSeconds } = result.failure;
  return { kind: 'refused', message: code, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
}

/** Post, redirect, get: the form's outcome goes into the session and the browser goes back (303). */
export function finish(request: FastifyRequest, reply: FastifyReply, flash: Flash, back: string, lang: Lang = 'en') {
  request.session.flash = flash;
  // a login the service no longer honours ends here too: the person logs in again and comes back
  if (flash.kind === 'refused' && flash.message === 'LINKED_HUMAN_NOT_BOUND') {
    delete request.session.reader;
    return reply.redirect(href('/login', lang, { next: back }), 303);
  }
  return reply.redirect(back, 303);
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
