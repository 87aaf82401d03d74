import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { HumanProofFields } from '../../../sdk/index.js';
import { notFound } from '../../platform/errors.js';
import type { Lang } from '../../platform/i18n/index.js';
import type { createAccountsService } from '../../readers/accounts/service.js';
import { LoginChallengeBody, LoginVerifyBody } from '../../identity/humans/schemas.js';
import type { createIdentityService } from '../../identity/humans/service.js';
import type { createUsersService } from '../../readers/users/service.js';
import type { Refusal, ServiceCalls } from './calls.js';
import { DevLoginForm, LoginFinishForm, LoginQuery, PlainForm } from './form-schemas.js';
import { finish, safeBack } from './form-replies.js';
import { devProofOf } from './dev-proof.js';
import { sendPage } from './render.js';
import { sameOriginCheck, SESSION_COOKIE, type SiteReader } from './session.js';
import type { LoginMode } from './visitor.js';
import { LoginPage, WorldIdPage } from './views/login.js';
import { savedLang, withLang } from './languages.js';
import { namePageHref } from './name-routes.js';
import type { NamesService } from '../../readers/names/service.js';

export interface LoginOptions {
  calls: ServiceCalls;
  humans: Pick<ReturnType<typeof createIdentityService>, 'createLoginChallenge' | 'verifyLogin'>;
  users: Pick<ReturnType<typeof createUsersService>, 'getPreferences'>;
  accounts: ReturnType<typeof createAccountsService>;
  names: Pick<NamesService, 'namesOf'>;
  mode: LoginMode;
  appId: string | undefined;
  /** Renders a page for this request's visitor, with a CSRF token for its forms. */
  prepare(request: FastifyRequest, reply: FastifyReply): void;
}

/**
 * Logging in and out. Both login modes run the service's documented login: a challenge for a fresh account
 * handle, the World ID proof of that challenge (IDKit's, or the dev verifier's for a test name), the verify;
 * then the person's account (accounts service) and a new session (rotated id) that ends with the login.
 */
export const loginRoutes: FastifyPluginAsyncTypebox<LoginOptions> = async (app, options) => {
  const { calls, humans, users, accounts, mode } = options;
  const guarded = { preHandler: [sameOriginCheck, (app as FastifyInstance).csrfProtection] };
  /** The steps that start or finish a login count against the login budget of the address (./limits.ts). */
  const loginStep = { ...guarded, config: { siteForm: 'login' as const } };

  /** The service's login challenge for a fresh account handle (the API's POST /v1/session/worldid/challenge). */
  const challengeFor = (handle: string) =>
    calls.write({ actorId: handle, verified: false }, (actor) => humans.createLoginChallenge(actor), {
      body: { schema: LoginChallengeBody, value: {} },
    });

  async function completeLogin(request: FastifyRequest, handle: string, challengeId: string, proof: HumanProofFields) {
    const verified = await calls.write({ actorId: handle, verified: false }, (actor, body) => humans.verifyLogin(actor, body), {
      body: { schema: LoginVerifyBody, value: { challengeId, ...proof } },
    });
    if (!verified.ok) return verified.failure;
    const { linkedHumanId } = verified.body;
    const settled = await accounts.settleLogin(handle, linkedHumanId).catch((err: { code?: string }) => {
      if (err.code === 'ACTOR_BOUND_TO_OTHER_HUMAN' || err.code === 'LINKED_HUMAN_NOT_BOUND') return { failure: { code: err.code } };
      throw err;
    });
    if ('failure' in settled) return settled.failure;
    const name = (await options.names.namesOf([settled.accountId])).get(settled.accountId);
    const reader: SiteReader = {
      accountId: settled.accountId,
      linkedHumanId,
      expiresAt: settled.sessionExpiresAt ?? verified.body.sessionExpiresAt,
      ...(name ? { name } : {}),
    };
    // a new session id at login: whatever id the browser had before (a planted one too) is gone
    await request.session.regenerate();
    request.session.reader = reader;
    request.session.cookie.expires = new Date(reader.expiresAt);
    return null;
  }

  /**
   * Where a login lands: `next` in the language the person saved in their preferences (kept by the service), if
   * they chose one; a person without a display name (a first login) chooses one first, then goes on to `next`
   * (unless `next` is a console page).
   */
  async function landing(request: FastifyRequest, lang: Lang, next: string): Promise<string> {
    const reader = request.session.reader;
    if (!reader) return next;
    const saved = await savedLang(calls, users, reader);
    const target = saved ? withLang(next, saved) : next;
    // a first login chooses the name the site and the console show (an admin's too: the console names people)
    return reader.name ? target : namePageHref(saved ?? lang, target);
  }

  function refused(request: FastifyRequest, reply: FastifyReply, lang: Lang, failure: Refusal, next: string) {
    const back = `/login?${new URLSearchParams({ lang, next }).toString()}`;
    return finish(
      request,
      reply,
      { kind: 'refused', message: failure.code, ...(failure.retryAfterSeconds ? { retryAfterSeconds: failure.retryAfterSeconds } : {}) },
      back,
    );
  }

  app.get('/login', { schema: { hide: true, querystring: LoginQuery } }, async (request, reply) => {
    const lang = request.query.lang ?? 'en';
    options.prepare(request, reply);
    return sendPage(reply, LoginPage, { lang, next: safeBack(request.query.next, lang) });
  });

  app.post('/login/dev', { ...loginStep, schema: { hide: true, body: DevLoginForm } }, async (request, reply) => {
    if (mode !== 'dev') throw notFound('page');
    const { lang = 'en', name } = request.body;
    const next = safeBack(request.body.back, lang);
    const handle = accounts.newLoginHandle();
    const challenge = await challengeFor(handle);
    if (!challenge.ok) return refused(request, reply, lang, challenge.failure, next);
    const { challengeId, action, signalHash } = challenge.body;
    const proof = devProofOf(name, action, signalHash);
    const failure = await completeLogin(request, handle, challengeId, proof);
    if (failure) return refused(request, reply, lang, failure, next);
    request.session.reader = { ...request.session.reader!, devPerson: name };
    return finish(request, reply, { kind: 'done', message: 'account.login.done' }, await landing(request, lang, next));
  });

  app.post('/login/start', { ...loginStep, schema: { hide: true, body: PlainForm } }, async (request, reply) => {
    if (mode !== 'world-id') throw notFound('page');
    const { lang = 'en' } = request.body;
    const next = safeBack(request.body.back, lang);
    const handle = accounts.newLoginHandle();
    const challenge = await challengeFor(handle);
    if (!challenge.ok) return refused(request, reply, lang, challenge.failure, next);
    const { challengeId, action, signal } = challenge.body;
    request.session.login = { handle, challengeId, action, signal, next };
    return reply.redirect(`/login/world-id?lang=${encodeURIComponent(lang)}`, 303);
  });

  app.get('/login/world-id', { schema: { hide: true, querystring: LoginQuery } }, async (request, reply) => {
    const lang = request.query.lang ?? 'en';
    const pending = request.session.login;
    if (mode !== 'world-id' || !pending) return reply.redirect(`/login?lang=${encodeURIComponent(lang)}`, 303);
    options.prepare(request, reply);
    return sendPage(reply, WorldIdPage, {
      lang,
      appId: options.appId ?? '',
      action: pending.action,
      signal: pending.signal,
      next: pending.next,
    });
  });

  app.post('/login/finish', { ...loginStep, schema: { hide: true, body: LoginFinishForm } }, async (request, reply) => {
    const { lang = 'en', nullifier_hash, merkle_root, proof, verification_level } = request.body;
    const pending = request.session.login;
    if (mode !== 'world-id' || !pending) return reply.redirect(`/login?lang=${encodeURIComponent(lang)}`, 303);
    delete request.session.login;
    const failure = await completeLogin(request, pending.handle, pending.challengeId, {
      nullifier_hash,
      merkle_root,
      proof,
      verification_level,
    });
    if (failure) return refused(request, reply, lang, failure, pending.next);
    return finish(request, reply, { kind: 'done', message: 'account.login.done' }, await landing(request, lang, pending.next));
  });

  app.post('/logout', { ...guarded, schema: { hide: true, body: PlainForm } }, async (request, reply) => {
    const lang = request.body.lang ?? 'en';
    // the session ends in the store (every instance) and the browser's cookie is cleared
    await request.session.destroy();
    void reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.redirect(safeBack(request.body.back, lang), 303);
  });
};
