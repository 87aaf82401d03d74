import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CorrectionBody, RetractionBody } from '../../newsroom/corrections/schemas.js';
import type { ConsensusResponse } from '../../newsroom/stories/evidence-schemas.js';
import type { Lang } from '../../platform/i18n/index.js';
import type { Refusal } from '../site/calls.js';
import { packetDiff } from '../site/diff.js';
import { finish } from '../site/form-replies.js';
import { href } from '../site/links.js';
import { sendPage } from '../site/render.js';
import { correctionOf, draftFromForm, draftOf } from './correction-draft.js';
import { enter, formRoute, HIDDEN, must, seg, type ConsoleDeps, type ConsoleVisit } from './gate.js';
import {
  CorrectionForm,
  DraftQuery,
  RetractionForm,
  RetractionPageQuery,
  SendCorrectionForm,
  StoryFindQuery,
  StoryPageQuery,
} from './moderation-forms.js';
import { IdParams } from './forms.js';
import { blockerOf, StoryFindPage, StoryModerationPage, type CorrectionDraft, type DiscountFinding } from './views/moderation-story.js';
import { CorrectionPreviewPage, RetractionConfirmPage } from './views/moderation-story-confirm.js';

declare module 'fastify' {
  interface Session {
    /**
     * The correction drafts this person previewed, by id (the preview's address names one): a reload or the
     * send reads it back. The newest few are kept.
     */
    correctionDrafts?: Record<string, { storyId: string; draft: CorrectionDraft; at: number }>;
  }
}

/** Forms that carry a whole story (its body may be long): more than the site's 16 KiB form limit. */
const STORY_FORM_LIMIT = 512 * 1024;
/** How many previewed drafts a session keeps. */
const KEPT_DRAFTS = 5;

const storyPath = (id: string) => `/console/moderation/stories/${seg(id)}`;
const detailsOf = (failure: Refusal) => (failure.details ?? []).map((d) => [d.path, d.message].filter(Boolean).join(': '));

/**
 * A story in the moderation area (content admins): found by its title, its correction previewed as a diff on a
 * page of its own address before it is sent, and its retraction confirmed on a page of its own. A legal hold or
 * a retraction is said at once, before any form is filled.
 */
export const moderationStoryRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const { stories, moderation, corrections, search, integrity } = deps.services;
  const guarded = formRoute(app);

  app.get('/console/moderation/stories', { schema: { ...HIDDEN, querystring: StoryFindQuery } }, async (request, reply) => {
    const lang = request.query.lang ?? 'en';
    const visit = enter(deps, request, reply, lang, 'moderation');
    if (!visit) return reply;
    if (request.query.id) return reply.redirect(href(storyPath(request.query.id), lang), 303);
    const q = request.query.q?.trim() || null;
    const found = q ? must(await visit.calls.readPublic(() => search.search({ q, lang, limit: 20 }))).items : null;
    return sendPage(reply, StoryFindPage, { lang, areas: visit.areas, q, found });
  });

  /**
   * The collusion finding whose cluster discount took weight off the story's attestations in its latest consensus
   * snapshot: the author's flagged cluster in the analysis the snapshot names; null when nothing was discounted.
   */
  async function discountFinding(visit: ConsoleVisit, authorBotId: string, consensus: ConsensusResponse): Promise<DiscountFinding | null> {
    const discount = consensus.snapshot.clusterDiscount;
    if (!discount?.applied || !discount.analysisId || discount.attestations === 0) return null;
    const { analysisId, attestations } = discount;
    const flagged = must(await visit.calls.read(visit.actor, () => integrity.flaggedMembers(analysisId), { admin: 'content' }));
    const cluster = flagged.analysisId === analysisId ? flagged.bots.get(authorBotId) : undefined;
    return cluster ? { analysisId, ...cluster, attestations } : null;
  }

  /** What the story's pages use: the public story, its versions (the current packet), its active legal holds. */
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

  /** The story page with a draft and, when it was not sent or previewed, why (nothing the person wrote is lost). */
  async function storyPage(
    reply: FastifyReply,
    visit: ConsoleVisit,
    id: string,
    draft: CorrectionDraft | null,
    refused: { code: string; details?: string[] } | null,
    status = 200,
    event: string | null = null,
  ) {
    const [view, consensus] = await Promise.all([storyView(visit, id), visit.calls.readPublic(() => stories.consensus(id))]);
    const finding = await discountFinding(visit, view.story.authorBotId, must(consensus));
    return sendPage(reply.code(status), StoryModerationPage, {
      lang: visit.lang,
      areas: visit.areas,
      ...view,
      finding,
      draft: draft ?? draftOf(view.packet),
      refused: refused ? { code: refused.code, details: refused.details ?? [] } : null,
      event,
    });
  }

  /** A draft this session previewed for this story, or null (an old address, another browser). */
  function keptDraft(request: FastifyRequest, storyId: string, draftId: string | undefined) {
    const kept = draftId ? request.session.correctionDrafts?.[draftId] : undefined;
    return kept && kept.storyId === storyId ? kept.draft : null;
  }

  function keepDraft(request: FastifyRequest, storyId: string, draft: CorrectionDraft): string {
    const id = `cd_${randomBytes(9).toString('base64url')}`;
    const kept = Object.entries(request.session.correctionDrafts ?? {})
      .sort(([, a], [, b]) => b.at - a.at)
      .slice(0, KEPT_DRAFTS - 1);
    request.session.correctionDrafts = Object.fromEntries([...kept, [id, { storyId, draft, at: Date.now() }]]);
    return id;
  }

  app.get(
    '/console/moderation/stories/:id',
    { schema: { ...HIDDEN, params: IdParams, querystring: StoryPageQuery } },
    async (request, reply) => {
      const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'moderation');
      if (!visit) return reply;
      const { id } = request.params;
      const draft = keptDraft(request, id, request.query.draft);
      const gone = request.query.draft && !draft ? { code: 'CONSOLE_DRAFT_GONE' } : null;
      return storyPage(reply, visit, id, draft, gone, 200, request.query.event ?? null);
    },
  );

  /** Previewing: the draft is kept in the session and its preview shown at an address of its own. */
  app.post(
    '/console/moderation/stories/:id/correction/preview',
    { ...guarded, bodyLimit: STORY_FORM_LIMIT, schema: { ...HIDDEN, params: IdParams, body: CorrectionForm } },
    async (request, reply) => {
      const lang = request.body.lang ?? 'en';
      const visit = enter(deps, request, reply, lang, 'moderation');
      if (!visit) return reply;
      const { id } = request.params;
      const draft = draftFromForm(request.body);
      const view = await storyView(visit, id);
      const correction = correctionOf(view.packet, draft);
      if (!correction.ok) return storyPage(reply, visit, id, draft, { code: correction.code }, 400);
      return reply.redirect(href(`${storyPath(id)}/correction/preview`, lang, { draft: keepDraft(request, id, draft) }), 303);
    },
  );

  app.get(
    '/console/moderation/stories/:id/correction/preview',
    { schema: { ...HIDDEN, params: IdParams, querystring: DraftQuery } },
    async (request, reply) => {
      const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'moderation');
      if (!visit) return reply;
      const { id } = request.params;
      const draft = keptDraft(request, id, request.query.draft);
      if (!draft) return storyPage(reply, visit, id, null, { code: 'CONSOLE_DRAFT_GONE' }, 404);
      const view = await storyView(visit, id);
      const blocker = blockerOf(view.story, view.holds);
      if (blocker) return storyPage(reply, visit, id, draft, null, 409);
      const correction = correctionOf(view.packet, draft);
      // the story changed since the preview (another correction): the draft is shown again with why
      if (!correction.ok) return storyPage(reply, visit, id, draft, { code: correction.code }, 409);
      return sendPage(reply, CorrectionPreviewPage, {
        lang: visit.lang,
        areas: visit.areas,
        story: view.story,
        draft,
        draftId: request.query.draft,
        diff: packetDiff(view.packet, correction.proposed),
      });
    },
  );

  app.post(
    '/console/moderation/stories/:id/correction',
    { ...guarded, schema: { ...HIDDEN, params: IdParams, body: SendCorrectionForm } },
    async (request, reply) => {
      const lang = request.body.lang ?? 'en';
      const visit = enter(deps, request, reply, lang, 'moderation');
      if (!visit) return reply;
      const id = request.params.id;
      const draft = keptDraft(request, id, request.body.draft);
      if (!draft) return storyPage(reply, visit, id, null, { code: 'CONSOLE_DRAFT_GONE' }, 404);
      const view = await storyView(visit, id);
      const correction = correctionOf(view.packet, draft);
      if (!correction.ok) return storyPage(reply, visit, id, draft, { code: correction.code }, 400);
      const result = await visit.calls.write(
        visit.actor,
        async (person, body) => corrections.correct(person, id, body, await request.governance()),
        { admin: 'content', body: { schema: CorrectionBody, value: { changes: correction.changes, note: correction.note } } },
      );
      if (result.ok) {
        delete request.session.correctionDrafts?.[request.body.draft];
        return finish(
          request,
          reply,
          {
            kind: 'done',
            message: 'console.moderation.corrected',
            params: { id: result.body.id, version: result.body.version, event: result.body.webhookEventId },
          },
          href(storyPath(id), lang, { event: result.body.webhookEventId }),
          lang,
        );
      }
      return refusedWrite(request, reply, result.failure, lang, id, () =>
        storyPage(reply, visit, id, draft, { code: result.failure.code, details: detailsOf(result.failure) }, 400),
      );
    },
  );

  /** The retraction asked once more, at an address of its own: what it does, and that it is final. */
  app.get(
    '/console/moderation/stories/:id/retraction',
    { schema: { ...HIDDEN, params: IdParams, querystring: RetractionPageQuery } },
    async (request, reply) => {
      const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'moderation');
      if (!visit) return reply;
      const { id } = request.params;
      const view = await storyView(visit, id);
      // under a hold, or retracted already: the story page says so (and what to do) instead of a form that would be refused
      if (blockerOf(view.story, view.holds)) return storyPage(reply, visit, id, null, null, 409);
      return sendPage(reply, RetractionConfirmPage, {
        lang: visit.lang,
        areas: visit.areas,
        story: view.story,
        reason: request.query.reason ?? '',
      });
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
