import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  LegalHoldBody,
  ResolveBody,
  SourceStatusBody,
  type LegalHold,
  type QuarantineItem,
  type SourceStatusResponse,
} from '../../newsroom/moderation/schemas.js';
import { sendPage } from '../site/render.js';
import { actIn, enter, formRoute, HIDDEN, must, refusal, type ConsoleDeps } from './gate.js';
import {
  BlockPageQuery,
  HoldsPageQuery,
  LangQuery,
  PlaceHoldForm,
  QuarantinePageQuery,
  ReleaseHoldForm,
  ResolveForm,
  ResolveParams,
  SOURCE_HOST_PATTERN,
  SourcesPageQuery,
  SourceStatusForm,
} from './moderation-forms.js';
import { IdParams } from './forms.js';
import { LegalHoldsListPage } from './views/moderation-holds.js';
import { itemPath } from './views/moderation-candidate.js';
import { BlockConfirmPage, QuarantineItemPage, QuarantineQueuePage } from './views/moderation-quarantine.js';
import { href } from '../site/links.js';
import { SourcesPage } from './views/moderation-sources.js';

declare module 'fastify' {
  interface Session {
    /** The last source status this person set, shown once on the sources page (the API's answer). */
    sourceStatus?: SourceStatusResponse;
  }
}

/** A source host as the API names it: the host of a URL (or the host itself), lower case, without "www.". */
export function sourceHostOf(value: string): string | null {
  let host = value.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host)) {
    try {
      host = new URL(host).hostname;
    } catch {
      return null;
    }
  }
  host = host.toLowerCase().replace(/^www\./, '');
  return host.length <= 253 && new RegExp(SOURCE_HOST_PATTERN).test(host) ? host : null;
}

/**
 * Moderation (content admins): the quarantine queue with each item's safety trace and its decisions, legal
 * holds and source statuses. A story's correction and retraction are in moderation-story-routes.ts, the webhook
 * delivery log in moderation-webhook-routes.ts.
 */
export const moderationRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const { moderation, stories } = deps.services;
  const actModeration = actIn(deps, 'moderation');
  const guarded = formRoute(app);

  // ---- the quarantine queue

  app.get('/console/moderation', { schema: { ...HIDDEN, querystring: QuarantinePageQuery } }, async (request, reply) => {
    const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'moderation');
    if (!visit) return reply;
    const status = request.query.status ?? 'OPEN';
    const { page, fields } = must(
      await visit.calls.read(
        visit.actor,
        async () => {
          const page = await moderation.quarantine.list({ status, cursor: request.query.cursor, limit: 20 });
          return { page, fields: await Promise.all(page.items.map((item) => moderation.quarantine.marked(item))) };
        },
        { admin: 'content' },
      ),
    );
    return sendPage(reply, QuarantineQueuePage, { lang: visit.lang, areas: visit.areas, page, fields, status });
  });

  app.get(
    '/console/moderation/quarantine/:scopeType/:scopeId',
    { schema: { ...HIDDEN, params: ResolveParams, querystring: LangQuery } },
    async (request, reply) => {
      const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'moderation');
      if (!visit) return reply;
      const candidate = must(
        await visit.calls.read(visit.actor, () => moderation.quarantine.candidate(request.params.scopeId), { admin: 'content' }),
      );
      return sendPage(reply, QuarantineItemPage, { lang: visit.lang, areas: visit.areas, ...candidate });
    },
  );

  /** "Block for good" asked once more, on a page of its own address: what it does and that it is final. */
  app.get(
    '/console/moderation/quarantine/:scopeType/:scopeId/block',
    { schema: { ...HIDDEN, params: ResolveParams, querystring: BlockPageQuery } },
    async (request, reply) => {
      const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'moderation');
      if (!visit) return reply;
      const { item } = must(
        await visit.calls.read(visit.actor, () => moderation.quarantine.candidate(request.params.scopeId), { admin: 'content' }),
      );
      return sendPage(reply, BlockConfirmPage, { lang: visit.lang, areas: visit.areas, item, reason: request.query.reason ?? '' });
    },
  );

  app.post(
    '/console/moderation/quarantine/:scopeType/:scopeId/resolve',
    { ...guarded, schema: { ...HIDDEN, params: ResolveParams, body: ResolveForm } },
    (request, reply) => {
      // blocking is for good: without the confirmation page's mark, the page that asks is shown first
      if (request.body.decision === 'BLOCK' && request.body.confirm !== '1')
        return reply.redirect(
          href(`${itemPath(request.params.scopeId)}/block`, request.body.lang ?? 'en', { reason: request.body.reason }),
          303,
        );
      return actModeration<QuarantineItem>(
        request,
        reply,
        request.body,
        ({ calls, actor }) =>
          calls.write(
            actor,
            async (person, body) => moderation.quarantine.resolve(person, request.params.scopeId, body, await request.governance()),
            { admin: 'content', body: { schema: ResolveBody, value: { decision: request.body.decision, reason: request.body.reason } } },
          ),
        (item) => ({ kind: 'done', message: `console.moderation.resolved.${item.status}`, params: { id: item.scopeId } }),
      );
    },
  );

  // ---- legal holds

  app.get('/console/moderation/legal-holds', { schema: { ...HIDDEN, querystring: HoldsPageQuery } }, async (request, reply) => {
    const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'moderation');
    if (!visit) return reply;
    const status = request.query.status ?? null;
    const storyId = request.query.storyId || null;
    const page = must(
      await visit.calls.read(
        visit.actor,
        () =>
          moderation.holds.list({
            ...(status ? { status } : {}),
            ...(storyId ? { storyId } : {}),
            cursor: request.query.cursor,
            limit: 20,
          }),
        { admin: 'content' },
      ),
    );
    return sendPage(reply, LegalHoldsListPage, { lang: visit.lang, areas: visit.areas, page, status, storyId });
  });

  app.post('/console/moderation/legal-holds', { ...guarded, schema: { ...HIDDEN, body: PlaceHoldForm } }, (request, reply) =>
    actModeration<LegalHold>(
      request,
      reply,
      request.body,
      ({ calls, actor }) =>
        calls.write(actor, (person, body) => moderation.holds.write(person, body), {
          admin: 'content',
          body: {
            schema: LegalHoldBody,
            value: {
              action: 'PLACE' as const,
              storyId: request.body.storyId,
              reason: request.body.reason,
              ...(request.body.caseReference?.trim() ? { caseReference: request.body.caseReference.trim() } : {}),
            },
          },
        }),
      (hold) => ({ kind: 'done', message: 'console.moderation.holdPlaced', params: { id: hold.id, story: hold.storyId } }),
    ),
  );

  app.post(
    '/console/moderation/legal-holds/:id/release',
    { ...guarded, schema: { ...HIDDEN, params: IdParams, body: ReleaseHoldForm } },
    (request, reply) =>
      actModeration<LegalHold>(
        request,
        reply,
        request.body,
        ({ calls, actor }) =>
          calls.write(actor, (person, body) => moderation.holds.write(person, body), {
            admin: 'content',
            body: { schema: LegalHoldBody, value: { action: 'RELEASE' as const, holdId: request.params.id, reason: request.body.reason } },
          }),
        (hold) => ({ kind: 'done', message: 'console.moderation.holdReleased', params: { id: hold.id, story: hold.storyId } }),
      ),
  );

  // ---- sources

  app.get('/console/moderation/sources', { schema: { ...HIDDEN, querystring: SourcesPageQuery } }, async (request, reply) => {
    const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'moderation');
    if (!visit) return reply;
    const last = request.session.sourceStatus ?? null;
    if (last) delete request.session.sourceStatus;
    const storyId = request.query.story || null;
    const lookup = storyId ? await visit.calls.readPublic(() => stories.sources(storyId)) : null;
    return sendPage(reply, SourcesPage, {
      lang: visit.lang,
      areas: visit.areas,
      last,
      storyId,
      sources: lookup?.ok ? lookup.body.sources : null,
      lookupRefused: lookup && !lookup.ok ? lookup.failure.code : null,
    });
  });

  app.post('/console/moderation/sources/status', { ...guarded, schema: { ...HIDDEN, body: SourceStatusForm } }, (request, reply) =>
    actModeration<SourceStatusResponse>(
      request,
      reply,
      request.body,
      async ({ calls, actor }) => {
        const host = sourceHostOf(request.body.host);
        if (!host) return refusal('CONSOLE_HOST_INVALID');
        const result = await calls.write(actor, (person, body) => moderation.sources.set(person, host, body), {
          admin: 'content',
          body: { schema: SourceStatusBody, value: { status: request.body.status, reason: request.body.reason } },
        });
        if (result.ok) request.session.sourceStatus = result.body;
        return result;
      },
      (source) => ({ kind: 'done', message: 'console.moderation.sourceSet', params: { host: source.id, status: source.status } }),
    ),
  );
};
