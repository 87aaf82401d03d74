import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifySession, { type SessionStore } from '@fastify/session';
import { hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The person a browser session is logged in as. */
export interface SiteReader {
  /** The site's account id: the actorId the site signs this person's requests with. */
  accountId: string;
  linkedHumanId: string;
  /** The end of the login's binding (sessionExpiresAt): the session never outlives it. */
  expiresAt: string;
  /** The person's display name (readers/names), once they chose one: the pages show it instead of the account id. */
  name?: string;
  /** Development login only: the name the person gave, which makes their dev proofs (the same name, the same person). */
  devPerson?: string;
}

/** A login in progress: the challenge the proof must answer. */
export interface PendingLogin {
  handle: string;
  challengeId: string;
  action: string;
  signal: string;
  next: string;
}

/** What the next page of this browser says about the form it just sent (post, redirect, get). */
export interface Flash {
  kind: 'done' | 'refused';
  /** A sentence key of the site's catalogue, or an API error code the site words itself. */
  message: string;
  /** The sentence's placeholders (a vote's weight, a topic). */
  params?: Record<string, string | number>;
  retryAfterSeconds?: number;
}

declare module 'fastify' {
  interface Session {
    reader?: SiteReader;
    login?: PendingLogin;
    flash?: Flash;
  }
}

export const SESSION_COOKIE = 'newsroom_session';
/** The cookie of the browser's CSRF secret (signed, HttpOnly): the secret every form token is made with. */
const CSRF_COOKIE = 'newsroom_csrf';
/** The body field of every form's CSRF token. */
export const CSRF_FIELD = '_csrf';
/** Whom a visitor's form tokens are bound to when nobody is logged in (account ids are `acct_` + hex). */
const ANONYMOUS_VISITOR = 'anonymous';

/**
 * Sessions, CSRF protection and form bodies for the site's routes (registered inside the site's plugin, so the
 * JSON API never sees a cookie). The session cookie is HttpOnly, SameSite=Lax, Secure when the request came
 * over https (behind a proxy: TRUST_PROXY), signed, and a session cookie (no expiry) until a login gives it the
 * login's end; the session itself lives in PostgreSQL (`store`).
 *
 * A session is written only when there is something to keep (a reader, a pending World ID login, a flash): the
 * CSRF secret is not in it but in its own signed cookie (same flags), so an anonymous visitor of the login page
 * (or of any page) costs no row. A token is bound to who the session says is logged in (the account, or the
 * anonymous visitor): one made on a page before the login is refused for the logged-in reader's forms, and the
 * login form is protected too (login CSRF). The session id still changes at login (session fixation).
 */
export async function registerSessions(app: FastifyInstance, options: { secret: string; store: SessionStore }) {
  await app.register(fastifyCookie, { secret: derivedKey(options.secret, 'site-csrf-cookie') });
  // before the session plugin's own onSend hook (which would save the emptied session)
  app.addHook('onSend', endEmptiedSession);
  await app.register(fastifySession, {
    secret: options.secret,
    cookieName: SESSION_COOKIE,
    store: options.store,
    saveUninitialized: false,
    rolling: false,
    cookie: { path: '/', httpOnly: true, secure: 'auto', sameSite: 'lax' },
  });
  await app.register(fastifyCsrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: CSRF_COOKIE,
    cookieOpts: { path: '/', httpOnly: true, secure: 'auto', sameSite: 'lax', signed: true },
    getToken: (request) => (request.body as Record<string, unknown> | undefined)?.[CSRF_FIELD] as string | undefined,
    getUserInfo: csrfSubject,
    csrfOpts: { userInfo: true, hmacKey: derivedKey(options.secret, 'site-csrf-token') },
  });
  await app.register(fastifyFormbody, { bodyLimit: 16_384 });
}

/**
 * Whom this request's form tokens are bound to: the account the session holds (also once its login has ended, so
 * that the form still reaches the handler, which sends the person to log in again), else the anonymous visitor.
 */
export function csrfSubject(request: FastifyRequest): string {
  return request.session?.reader?.accountId ?? ANONYMOUS_VISITOR;
}

/**
 * A session this request left with nothing in it (its flash shown, its reader forgotten) ends here: its row is
 * deleted and the browser's cookie cleared, instead of an empty session kept until it expires.
 */
async function endEmptiedSession(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const session = request.session as Partial<FastifyRequest['session']> | null;
  if (typeof session?.isModified === 'function' && session.isModified() && Object.keys(session).every((key) => key === 'cookie')) {
    await session.destroy!();
    void reply.clearCookie(SESSION_COOKIE, { path: '/' });
  }
  return payload;
}

const derivedKey = (secret: string, purpose: string) => Buffer.from(hkdfSync('sha256', secret, 'newsroom', purpose, 32)).toString('hex');

/** The logged-in reader of this request, or null (no session, or one whose login has ended). */
export function readerOf(request: FastifyRequest, now: number): SiteReader | null {
  const reader = request.session.reader;
  if (!reader) return null;
  return Date.parse(reader.expiresAt) > now ? reader : null;
}

/**
 * The first of the two CSRF checks of every state-changing form (the token is the second): a browser that
 * says where a request comes from must say it comes from this site. `Sec-Fetch-Site` other than same-origin
 * (or none: typed by the person) is refused, and so is an `Origin` whose host is not the request's.
 */
export function sameOriginCheck(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) {
  done(foreignForm(request) ? pageError(403, 'a form sent from another site') : undefined);
}

/** Whether the browser says this request comes from another site (sameOriginCheck refuses it). */
export function foreignForm(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  if (origin === undefined) return false;
  try {
    return new URL(origin).origin !== new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return true; // "null" (an opaque origin) or garbage
  }
}

/** A refusal or failure the site's error page answers with `status` (the API's status for the same request). */
export function pageError(status: number, message: string): Error {
  return Object.assign(new Error(message), { statusCode: status });
}

/**
 * The key of the session cookies' signatures: SESSION_SECRET, else derived from the human signing secret (every
 * instance that shares it shares the sessions), else random for this process.
 */
export function sessionKey(sessionSecret: string | undefined, humanSigningSecret: string | undefined): string {
  if (sessionSecret) return sessionSecret;
  if (!humanSigningSecret) return randomBytes(32).toString('hex');
  return Buffer.from(hkdfSync('sha256', humanSigningSecret, 'newsroom', 'site-session', 32)).toString('hex');
}
