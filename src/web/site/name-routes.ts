import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Clock } from '../../platform/clock.js';
import type { Lang } from '../../platform/i18n/index.js';
import { SetNameBody } from '../../readers/names/schemas.js';
import type { NamesService } from '../../readers/names/service.js';
import type { ServiceCalls } from './calls.js';
import { actorOf, finish, requireReader, safeBack } from './form-replies.js';
import { LoginQuery, NameForm } from './form-schemas.js';
import { href } from './links.js';
import { sendPage } from './render.js';
import { pageError, sameOriginCheck, type Flash, type SiteReader } from './session.js';
import { NamePage } from './views/name.js';

/**
 * Sets the person's name as `POST /v1/users/me/name` does, in process (calls.write: their tier, the human write
 * budget and the route's body schema). A name the rules refuse is said by the rule it breaks; an empty one, which
 * the route's schema refuses before the rules, by the length rule.
 */
export async function setName(
  calls: ServiceCalls,
  names: Pick<NamesService, 'setName'>,
  reader: SiteReader,
  typed: string,
): Promise<Flash & { name?: string }> {
  const name = typed.trim();
  if (!name) return { kind: 'refused', message: 'NAME_LENGTH' };
  const set = await calls.write(actorOf(reader), (actor, body) => names.setName(actor, body.name), {
    body: { schema: SetNameBody, value: { name } },
  });
  if (set.ok) return { kind: 'done', message: 'account.name.done', params: { name: set.body.name ?? name }, name: set.body.name ?? name };
  const { code, details, retryAfterSeconds } = set.failure;
  const rule = code === 'VALIDATION_FAILED' ? details?.[0]?.code : undefined;
  return { kind: 'refused', message: rule ?? code, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
}

/** The address of the name page, which goes on to `next` once the person has chosen (or skipped). */
export const namePageHref = (lang: Lang, next: string) => href('/me/name', lang, { next });

export interface NameRoutesOptions {
  names: Pick<NamesService, 'setName' | 'myName'>;
  calls: ServiceCalls;
  clock: Clock;
  prepare(request: FastifyRequest, reply: FastifyReply): void;
}

/**
 * Choosing a display name: the page a person sees after their first login (and before their first comment),
 * and the form of "My newsroom" that changes it. A refused name comes back as a sentence on the same page.
 */
export const nameRoutes: FastifyPluginAsyncTypebox<NameRoutesOptions> = async (app, options) => {
  const { names, calls, clock } = options;
  const guarded = { preHandler: [sameOriginCheck, (app as FastifyInstance).csrfProtection] };

  app.get('/me/name', { schema: { hide: true, querystring: LoginQuery } }, async (request, reply) => {
    const lang = request.query.lang ?? 'en';
    const next = safeBack(request.query.next, lang);
    const reader = requireReader(request, reply, lang, namePageHref(lang, next), clock.now());
    if (!reader) return reply;
    const mine = await calls.read(actorOf(reader), (actor) => names.myName(actor));
    if (!mine.ok) {
      // a login the service no longer honours: the person logs in again and comes back
      if (mine.failure.code === 'LINKED_HUMAN_NOT_BOUND') {
        delete request.session.reader;
        return reply.redirect(href('/login', lang, { next: namePageHref(lang, next) }), 303);
      }
      throw pageError(mine.status, mine.failure.code);
    }
    const { name } = mine.body;
    // a name chosen elsewhere (the API) since this login: the session learns it
    if (name && name !== reader.name) request.session.reader = { ...reader, name };
    options.prepare(request, reply);
    return sendPage(reply, NamePage, { lang, next, current: name });
  });

  app.post('/me/name', { ...guarded, schema: { hide: true, body: NameForm } }, async (request, reply) => {
    const lang = request.body.lang ?? 'en';
    const next = safeBack(request.body.back, lang);
    const reader = requireReader(request, reply, lang, namePageHref(lang, next), clock.now());
    if (!reader) return reply;
    const { name, ...flash } = await setName(calls, names, reader, request.body.name);
    if (name) request.session.reader = { ...reader, name };
    // chosen: on to where the person was going; refused: the name page again, with the sentence
    return finish(request, reply, flash, name ? next : namePageHref(lang, next), lang);
  });
};
