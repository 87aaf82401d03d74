import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CorrectionBody, RetractionBody } from '../../newsroom/corrections/schemas.js';
import type { Lang } from '../../platform/i18n/index.js';
import type { Static } from '@sinclair/typebox';
import type { Refusal } from '../site/calls.js';
import { packetDiff } from '../site/diff.js';
import { finish } from '../site/form-replies.js';
import { href } from '../site/links.js';
import { sendPage } from '../site/render.js';
import { correctionOf, draftOf } from './correction-draft.js';
import { enter, formRoute, HIDDEN, must, seg, type ConsoleDeps, type ConsoleVisit } from './gate.js';
import { CorrectionForm, RetractionForm, StoryFindQuery, StoryPageQuery } from './moderation-forms.js';
import { IdParams } from './forms.js';
import { StoryFindPage, StoryModerationPage, type CorrectionDraft } from './views/moderation-story.js';
import { CorrectionPreviewPage, RetractionConfirmPage } from './views/moderation-story-confirm.js';

/** Forms that carry a whole story (its body may be long): more than the site's 16 KiB form limit. */
const STORY_FORM_LIMIT = 512 * 1024;

const storyPath = (id: string) => `/console/moderation/stories/${seg(id)}`;
const detailsOf = (failure: Refusal) => (failure.details ?? []).map((d) => [d.path, d.message].filter(Boolean).join(': '));

/**
 * A story in the moderation area (content admins): its correction, previewed as a diff before it is sent, and
 * its retraction, confirmed on a page of its own.
 */
export const moderationStoryRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const { stories, moderation, corrections } = deps.services;
  const guarded = formRoute(app);

  app.get('/console/moderation/stories', { schema: { ...HIDDEN, querystring: StoryFindQuery } }, async (request, reply) => {
    const lang = request.query.lang ?? 'en';
    const visit = enter(deps, request, reply, lang, 'moderation');
    if (!visit) return reply;
    if (request.query.id) return reply.redirect(href(storyPath(request.query.id), lang), 303);
    return sendPage(reply, StoryFindPage, { lang, areas: visit.areas });
  });

  /** What the story page shows: the public story, its versions (the current packet), its active legal holds. */
  async function storyView(visit: ConsoleVisit, id: string) {
    const [story, versions, holds] = await Promise.all([
      visit.calls.readPublic(() => stories.detail(id, 'en')),
      visit.calls.readPublic(() => stories.versions(id)),
      visit.calls.read(visit.actor, () => moderation.holds.list({ storyId: id, status: 'ACTIVE', limit: 20 }), { admin: 'content' }),
    ]);
    const current = must(versions);
    const packet = current.versions.find((v) => v.current)?.packet ?? current.versions[current.versions.length - 1]!.packet;
    return { story: must(story), versions: current, packet, holds: must(holds).items };
  }

  /** The story page again with the person's draft and why it was not sent (400): nothing they wrote is lost. */
  async function draftRefused(
    reply: FastifyReply,
    visit: ConsoleVisit,
    id: string,
    draft: CorrectionDraft,
    code: string,
    details: string[] = [],
  ) {
    const view = await storyView(visit, id);
    return sendPage(reply.code(400), StoryModerationPage, {
      lang: visit.lang,
      areas: visit.areas,
      ...view,
      draft,
      refused: { code, details },
      event: null,
    });
  }

  app.get(
    '/console/moderation/stories/:id',
    { schema: { ...HIDDEN, params: IdParams, querystring: StoryPageQuery } },
    async (request, reply) => {
      const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'moderation');
      if (!visit) return reply;
      const view = await storyView(visit, request.params.id);
      return sendPage(reply, StoryModerationPage, {
        lang: visit.lang,
        areas: visit.areas,
        ...view,
        draft: draftOf(view.packet),
        refused: null,
        event: request.query.event ?? null,
      });
    },
  );

  const draftFrom = (body: Static<typeof CorrectionForm>): CorrectionDraft => ({
    title: body.title,
    summary: body.summary,
    body: body.body,
    claims: body.claims,
    sources: body.sources,
    note: body.note,
  });

  app.post(
    '/console/moderation/stories/:id/correction/preview',
    { ...guarded, bodyLimit: STORY_FORM_LIMIT, schema: { ...HIDDEN, params: IdParams, body: CorrectionForm } },
    async (request, reply) => {
      const visit = enter(deps, request, reply, request.body.lang ?? 'en', 'moderation');
      if (!visit) return reply;
      const draft = draftFrom(request.body);
      const view = await storyView(visit, request.params.id);
      const correction = correctionOf(view.packet, draft);
      if (!correction.ok) return draftRefused(reply, visit, request.params.id, draft, correction.code);
      return sendPage(reply, CorrectionPreviewPage, {
        lang: visit.lang,
        areas: visit.areas,
        story: view.story,
        draft,
        diff: packetDiff(view.packet, correction.proposed),
      });
    },
  );

  app.post(
    '/console/moderation/stories/:id/correction/edit',
    { ...guarded, bodyLimit: STORY_FORM_LIMIT, schema: { ...HIDDEN, params: IdParams, body: CorrectionForm } },
    async (request, reply) => {
      const visit = enter(deps, request, reply, request.body.lang ?? 'en', 'moderation');
      if (!visit) return reply;
      const view = await storyView(visit, request.params.id);
      return sendPage(reply, StoryModerationPage, {
        lang: visit.lang,
        areas: visit.areas,
        ...view,
        draft: draftFrom(request.body),
        refused: null,
        event: null,
      });
    },
  );

  app.post(
    '/console/moderation/stories/:id/correction',
    { ...guarded, bodyLimit: STORY_FORM_LIMIT, schema: { ...HIDDEN, params: IdParams, body: CorrectionForm } },
    async (request, reply) => {
      const lang = request.body.lang ?? 'en';
      const visit = enter(deps, request, reply, lang, 'moderation');
      if (!visit) return reply;
      const id = request.params.id;
      const draft = draftFrom(request.body);
      const view = await storyView(visit, id);
      const correction = correctionOf(view.packet, draft);
      if (!correction.ok) return draftRefused(reply, visit, id, draft, correction.code);
      const result = await visit.calls.write(
        visit.actor,
        async (person, body) => corrections.correct(person, id, body, await request.governance()),
        { admin: 'content', body: { schema: CorrectionBody, value: { changes: correction.changes, note: correction.note } } },
      );
      return result.ok
        ? finish(
            request,
            reply,
            {
              kind: 'done',
              message: 'console.moderation.corrected',
              params: { id: result.body.id, version: result.body.version, event: result.body.webhookEventId },
            },
            href(storyPath(id), lang, { event: result.body.webhookEventId }),
            lang,
          )
        : refusedWrite(request, reply, result.failure, lang, id, () =>
            draftRefused(reply, visit, id, draft, result.failure.code, detailsOf(result.failure)),
          );
    },
  );

  app.post(
    '/console/moderation/stories/:id/retraction/confirm',
    { ...guarded, schema: { ...HIDDEN, params: IdParams, body: RetractionForm } },
    async (request, reply) => {
      const visit = enter(deps, request, reply, request.body.lang ?? 'en', 'moderation');
      if (!visit) return reply;
      const story = must(await visit.calls.readPublic(() => stories.detail(request.params.id, 'en')));
      return sendPage(reply, RetractionConfirmPage, { lang: visit.lang, areas: visit.areas, story, reason: request.body.reason });
    },
  );

  app.post(
    '/console/moderation/stories/:id/retraction',
    { ...guarded, schema: { ...HIDDEN, params: IdParams, body: RetractionForm } },
    async (request, reply) => {
      const lang = request.body.lang ?? 'en';
      const visit = enter(deps, request, reply, lang, 'moderation');
      if (!visit) return reply;
      const id = request.params.id;
      const result = await visit.calls.write(
        visit.actor,
        async (person, body) => corrections.retract(person, id, body, await request.governance()),
        { admin: 'content', body: { schema: RetractionBody, value: { reason: request.body.reason } } },
      );
      if (!result.ok) return refusedWrite(request, reply, result.failure, lang, id);
      return finish(
        request,
        reply,
        { kind: 'done', message: 'console.moderation.retracted', params: { id, event: result.body.webhookEventId } },
        href(storyPath(id), lang, { event: result.body.webhookEventId }),
        lang,
      );
    },
  );

  /** A refused correction or retraction: the draft page when there is one, else the story page with the sentence. */
  function refusedWrite(
    request: FastifyRequest,
    reply: FastifyReply,
    failure: Refusal,
    lang: Lang,
    id: string,
    redraw?: () => Promise<FastifyReply>,
  ) {
    const { code, retryAfterSeconds } = failure;
    // an ended login, or a rate limit, goes through the site's usual path (login again; the wait in the flash)
    if (!redraw || code === 'LINKED_HUMAN_NOT_BOUND' || retryAfterSeconds !== undefined)
      return finish(
        request,
        reply,
        { kind: 'refused', message: code, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) },
        href(storyPath(id), lang),
        lang,
      );
    return redraw();
  }
};
