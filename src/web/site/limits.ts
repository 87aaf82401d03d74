import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import { enforceRateLimit } from '../../platform/rate-limit.js';
import type { RateLimitStore } from '../../platform/rate-limit-store.js';
import { hookList, routeMethods } from '../../platform/route-hooks.js';
import { foreignForm } from './session.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The per-address budget a form of the site counts against: `login` for the steps that start or finish a
     * login; every other post of the site (and of the console inside it) is a `form`.
     */
    siteForm?: 'login' | 'form';
  }
}

/** The site's per-address budgets (config.rateLimits.site*), counted in the API's shared rate-limit store. */
export interface FormLimits {
  store: RateLimitStore;
  loginsPerMinute: number;
  formPostsPerMinute: number;
}

/**
 * Every post of the site counts against its client address (request.ip, which honours TRUST_PROXY) in the store
 * the API's limits use (Redis: one count for every instance). A login makes a fresh account handle each time, so
 * the API's per-actor limits never see a run of them; this count is what holds them back. Registered before the
 * routes (an `onRoute` hook): a form added later is counted without asking.
 *
 * The count runs in preValidation: after the body is parsed (a 429 page speaks the form's language) and before
 * the CSRF check and the handler, so that nothing is written (no challenge, no session) for a post over the limit.
 * A post the browser says comes from another site is not counted: it is refused next (sameOriginCheck), and
 * another site must not be able to use up a reader's budget by making their browser post.
 */
export function registerFormLimits(app: FastifyInstance, limits: FormLimits): void {
  const counter =
    (budget: 'login' | 'form', perMinute: number): preValidationAsyncHookHandler =>
    async (request, reply) => {
      if (foreignForm(request)) return;
      await enforceRateLimit(
        limits.store,
        `site:${budget}:${request.ip}`,
        perMinute,
        reply,
        budget === 'login' ? 'site-logins' : 'site-forms',
      );
    };
  const countLogin = counter('login', limits.loginsPerMinute);
  const countForm = counter('form', limits.formPostsPerMinute);
  app.addHook('onRoute', (route) => {
    if (!routeMethods(route).includes('POST')) return;
    const count = route.config?.siteForm === 'login' ? countLogin : countForm;
    route.preValidation = [count, ...hookList(route.preValidation)];
  });
}
