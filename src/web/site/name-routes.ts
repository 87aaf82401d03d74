import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import type { Lang } from '../../platform/i18n/index.js';
import { enforceRateLimit } from '../../platform/rate-limit.js';
import type { RateLimitStore } from '../../platform/rate-limit-store.js';
import type { NamesService } from '../../readers/names/service.js';
import type { HumanActor } from '../../platform/auth/types.js';
import { finish, requireReader, safeBack } from './form-replies.js';
import { LoginQuery, NameForm } from './form-schemas.js';
import { href } from './links.js';
import { sendPage } from './render.js';
import { sameOriginCheck, type Flash, type SiteReader } from './session.js';
import { NamePage } from './views/name.js';

/** The budget of the API's human writes, which a write of the site counts against too (the same key and limit). */
export interface HumanWriteBudget {
  store: RateLimitStore;
  perMinute: number;
}

/**
 * The one write the site makes by calling the service in process rather than through a signed API request: it
 * counts against the person's human-write budget exactly as `POST /v1/users/me/name` does (the same store, key and
 * limit), then sets the name. Kept apart so that it moves with the site's other writes.
 */
export async function setNameInProcess(
  names: Pick<NamesService, 'setName'>,
  budget: HumanWriteBudget,
  reader: SiteReader,
  name: string,
  reply: FastifyReply,
): Promise<Flash & { name?: string }> {
  try {
    await enforceRateLimit(budget.store, `human:${reader.accountId}`, budget.perMinute, reply, 'human-writes');
    const set = await names.setName(readerActor(reader), name.trim());
    return { kind: 'done', message: 'account.name.done', params: { name: set.name ?? name }, name: set.name ?? name };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const rule = err.code === 'VALIDATION_FAILED' ? err.details?.[0]?.code : undefined;
    return {
      kind: 'refused',
      message: rule ?? err.code,
      ...(err.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: err.retryAfterSeconds }),
    };
  }
}

/** The logged-in person as the service's actor: their account, bound to their World ID login (L3). */
const readerActor = (reader: SiteReader): HumanActor => ({
  kind: 'human',
  actorId: reader.accountId,
  verified: true,
  linkedHumanId: reader.linkedHumanId,
  tier: 'L3',
});

/** The address of the name page, which goes on to `next` once the person has chosen (or skipped). */
export const namePageHref = (lang: Lang, next: string) => href('/me/name', lang, { next });

export interface NameRoutesOptions {
  names: Pick<NamesService, 'setName' | 'myName'>;
  budget: HumanWriteBudget;
  clock: Clock;
  prepare(request: FastifyRequest, reply: FastifyReply): void;
}

/**
 * Choosing a display name: the page a person sees after their first login (and before their first comment),
 * and the form of "My newsroom" that changes it. A refused name comes back as a sentence on the same page.
 */
export const nameRoutes: FastifyPluginAsyncTypebox<NameRoutesOptions> = async (app, options) => {
  const { names, budget, clock } = options;
  const guarded = { preHandler: [sameOriginCheck, (app as FastifyInstance).csrfProtection] };

  app.get('/me/name', { schema: { hide: true, querystring: LoginQuery } }, async (request, reply) => {
    const lang = request.query.lang ?? 'en';
    const next = safeBack(request.query.next, lang);
    const reader = requireReader(request, reply, lang, namePageHref(lang, next), clock.now());
    if (!reader) return reply;
    const { name } = await names.myName(readerActor(reader));
    options.prepare(request, reply);
    return sendPage(reply, NamePage, { lang, next, current: name });
  });

  app.post('/me/name', { ...guarded, schema: { hide: true, body: NameForm } }, async (request, reply) => {
    const lang = request.body.lang ?? 'en';
    const next = safeBack(request.body.back, lang);
    const reader = requireReader(request, reply, lang, namePageHref(lang, next), clock.now());
    if (!reader) return reply;
    const { name, ...flash } = await setNameInProcess(names, budget, reader, request.body.name, reply);
    if (name) request.session.reader = { ...reader, name };
    // chosen: on to where the person was going; refused: the name page again, with the sentence
    return finish(request, reply, flash, name ? next : namePageHref(lang, next), lang);
  });
};
