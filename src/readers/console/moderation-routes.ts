import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DeliveryLog, DeliveryLogQuery } from '../../delivery/webhooks/delivery-log.js';
import type { CorrectionResponse } from '../../newsroom/corrections/schemas.js';
import type { LegalHoldsPage, QuarantinePage } from '../../newsroom/moderation/schemas.js';
import { QUARANTINE_STATUSES, type LegalHold, type QuarantineItem, type SourceStatusResponse } from '../../newsroom/moderation/schemas.js';
import type { SourcesResponse, VersionsResponse } from '../../newsroom/stories/evidence-schemas.js';
import type { StoryResponse } from '../../newsroom/stories/schemas.js';
import type { Lang } from '../../platform/i18n/index.js';
import type { Static } from '@sinclair/typebox';
import type { ApiFailure } from '../site/api.js';
import { packetDiff } from '../site/diff.js';
import { finish } from '../site/form-replies.js';
import { href } from '../site/links.js';
import { sendPage } from '../site/render.js';
import { act, enter, formRoute, HIDDEN, must, seg, type ConsoleDeps, type ConsoleVisit } from './gate.js';
import { refusal } from './governance-routes.js';
import {
  CorrectionForm,
  DeliveriesPageQuery,
  HoldsPageQuery,
  PlaceHoldForm,
  QuarantinePageQuery,
  ReleaseHoldForm,
  ResolveForm,
  ResolveParams,
  RetractionForm,
  SOURCE_HOST_PATTERN,
  SourcesPageQuery,
  SourceStatusForm,
  StoryFindQuery,
  StoryPageQuery,
} from './moderation-forms.js';
import { IdParams } from './forms.js';
import {
  CorrectionPreviewPage,
  DeliveriesPage,
  LegalHoldsListPage,
  QuarantineQueuePage,
  RetractionConfirmPage,
  SourcesPage,
  StoryFindPage,
  StoryModerationPage,
  type CorrectionDraft,
} from './views/moderation.js';

declare module 'fastify' {
  interface Session {
    /** The last source status this person set, shown once on the sources page (the API's answer). */
    sourceStatus?: SourceStatusResponse;
  }
}

type QuarantinePage = Static<typeof QuarantinePage>;
type LegalHoldsPage = Static<typeof LegalHoldsPage>;
type Packet = VersionsResponse['versions'][number]['packet'];
type ClaimInput = { id?: string; text: string };
type SourceInput = { url: string; title?: string; publisher?: string };

export interface ModerationDeps extends ConsoleDeps {
  deliveryLog(query: DeliveryLogQuery): Promise<DeliveryLog>;
}

/** Forms that carry a whole story (its body may be long): more than the site's 16 KiB form limit. */
const STORY_FORM_LIMIT = 512 * 1024;

const isQuarantineStatus = (value: string | undefined): value is (typeof QUARANTINE_STATUSES)[number] =>
  QUARANTINE_STATUSES.includes(value as never);
const isHoldStatus = (value: string | undefined): value is 'ACTIVE' | 'RELEASED' => value === 'ACTIVE' || value === 'RELEASED';

/** The form's fields as the current packet has them (what the correction form starts from). */
export const draftOf = (packet: Packet, note = ''): CorrectionDraft => ({
  title: packet.title,
  summary: packet.summary,
  body: packet.body,
  claims: JSON.stringify(packet.claims, null, 2),
  sources: JSON.stringify(packet.sources, null, 2),
  note,
});

/** Text as the API stores it: a browser sends a textarea's line ends as CR LF. */
const text = (value: string) => value.replace(/\r\n?/g, '\n');

function parseList<T>(value: string, valid: (item: Record<string, unknown>) => boolean): T[] | null {
  try {
    const parsed: unknown = JSON.parse(value);
    if (
      !Array.isArray(parsed) ||
      !parsed.every((item) => item !== null && typeof item === 'object' && valid(item as Record<string, unknown>))
    )
      return null;
    return parsed as T[];
  } catch {
    return null;
  }
}

const optionalString = (v: unknown) => v === undefined || typeof v === 'string';
const claimShape = (c: Record<string, unknown>) => typeof c.text === 'string' && optionalString(c.id);
const sourceShape = (s: Record<string, unknown>) => typeof s.url === 'string' && optionalString(s.title) && optionalString(s.publisher);

/**
 * The changes a correction form makes to the current packet (only the fields that differ, as the API takes
 * them) and the packet they would make, for the preview's diff; or the console's refusal code.
 */
export function correctionOf(
  current: Packet,
  draft: CorrectionDraft,
): { ok: true; changes: Record<string, unknown>; proposed: Packet; note: string } | { ok: false; code: string } {
  const changes: Record<string, unknown> = {};
  for (const field of ['title', 'summary', 'body'] as const) {
    const value = text(draft[field]);
    if (value === current[field]) continue;
    if (!value.trim()) return { ok: false, code: 'CONSOLE_FIELD_EMPTY' };
    changes[field] = value;
  }
  const claims = parseList<ClaimInput>(draft.claims, claimShape);
  if (!claims) return { ok: false, code: 'CONSOLE_CLAIMS_INVALID' };
  if (JSON.stringify(claims) !== JSON.stringify(current.claims)) changes.claims = claims;
  const sources = parseList<SourceInput>(draft.sources, sourceShape);
  if (!sources) return { ok: false, code: 'CONSOLE_SOURCES_INVALID' };
  if (JSON.stringify(sources) !== JSON.stringify(current.sources)) changes.sources = sources;
  if (Object.keys(changes).length === 0) return { ok: false, code: 'CONSOLE_NO_CHANGES' };
  const note = text(draft.note).trim();
  if (!note) return { ok: false, code: 'CONSOLE_NOTE_REQUIRED' };
  const proposed: Packet = {
    ...current,
    ...(changes as Partial<Packet>),
    // a new claim gets its id from the service: the preview marks it with "+"
    claims: claims.map((c) => ({ id: c.id ?? '+', text: c.text })),
    sources,
  };
  return { ok: true, changes, proposed, note };
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

const storyPath = (id: string) => `/console/moderation/stories/${seg(id)}`;
const detailsOf = (failure: ApiFailure) =>
  ((failure as ApiFailure & { details?: { path?: string; message?: string }[] }).details ?? []).map((d) =>
    [d.path, d.message].filter(Boolean).join(': '),
  );

/**
 * Moderation (content admins): the quarantine queue with each item's safety trace and its decisions, legal
 * holds, source statuses, the correction (previewed as a diff before it is sent) and retraction of a story,
 * and the webhook delivery log of corrections and retractions.
 */
export const moderationRoutes: FastifyPluginAsyncTypebox<ModerationDeps> = async (app, options) => {
  const { deliveryLog, ...deps } = options;
  const guarded = formRoute(app);

  // ---- the quarantine queue

  app.get('/console/moderation', { schema: { ...HIDDEN, querystring: QuarantinePageQuery } }, async (request, reply) => {
    const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'moderation');
    if (!visit) return reply;
    const status = isQuarantineStatus(request.query.status) ? request.query.status : 'OPEN';
    const page = must(
      await visit.client.read<QuarantinePage>('/v1/admin/moderation/quarantine', visit.actor, {
        status,
        cursor: request.query.cursor,
        limit: '20',
      }),
    );
    return sendPage(reply, QuarantineQueuePage, { lang: visit.lang, areas: visit.areas, page, status });
  });

  app.post(
    '/console/moderation/quarantine/:scopeType/:scopeId/resolve',
    { ...guarded, schema: { ...HIDDEN, params: ResolveParams, body: ResolveForm } },
    (request, reply) =>
      act<QuarantineItem>(
        deps,
        request,
        reply,
        request.body,
        'moderation',
        ({ client, actor }) =>
          client.write(`/v1/admin/moderation/quarantine/story/${seg(request.params.scopeId)}/resolve`, actor, {
            decision: request.body.decision,
            reason: request.body.reason,
          }),
        (item) => ({ kind: 'done', message: `console.moderation.resolved.${item.status}`, params: { id: item.scopeId } }),
      ),
  );

  // ---- legal holds

  app.get('/console/moderation/legal-holds', { schema: { ...HIDDEN, querystring: HoldsPageQuery } }, async (request, reply) => {
    const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'moderation');
    if (!visit) return reply;
    const status = isHoldStatus(request.query.status) ? request.query.status : null;
    const storyId = request.query.storyId || null;
    const page = must(
      await visit.client.read<LegalHoldsPage>('/v1/admin/moderation/legal-holds', visit.actor, {
        status: status ?? undefined,
        storyId: storyId ?? undefined,
        cursor: request.query.cursor,
        limit: '20',
      }),
    );
    return sendPage(reply, LegalHoldsListPage, { lang: visit.lang, areas: visit.areas, page, status, storyId });
  });

  app.post('/console/moderation/legal-holds', { ...guarded, schema: { ...HIDDEN, body: PlaceHoldForm } }, (request, reply) =>
    act<LegalHold>(
      deps,
      request,
      reply,
      request.body,
      'moderation',
      ({ client, actor }) =>
        client.write('/v1/admin/moderation/legal-holds', actor, {
          action: 'PLACE',
          storyId: request.body.storyId,
          reason: request.body.reason,
          ...(request.body.caseReference?.trim() ? { caseReference: request.body.caseReference.trim() } : {}),
        }),
      (hold) => ({ kind: 'done', message: 'console.moderation.holdPlaced', params: { id: hold.id, story: hold.storyId } }),
    ),
  );

  app.post(
    '/console/moderation/legal-holds/:id/release',
    { ...guarded, schema: { ...HIDDEN, params: IdParams, body: ReleaseHoldForm } },
    (request, reply) =>
      act<LegalHold>(
        deps,
        request,
        reply,
        request.body,
        'moderation',
        ({ client, actor }) =>
          client.write('/v1/admin/moderation/legal-holds', actor, {
            action: 'RELEASE',
            holdId: request.params.id,
            reason: request.body.reason,
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
    const lookup = storyId ? await visit.client.readPublic<SourcesResponse>(`/v1/stories/${seg(storyId)}/sources`) : null;
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
    act<SourceStatusResponse>(
      deps,
      request,
      reply,
      request.body,
      'moderation',
      async ({ client, actor }) => {
        const host = sourceHostOf(request.body.host);
        if (!host) return refusal('CONSOLE_HOST_INVALID');
        const result = await client.write<SourceStatusResponse>(`/v1/admin/sources/${seg(host)}/status`, actor, {
          status: request.body.status,
          reason: request.body.reason,
        });
        if (result.ok) request.session.sourceStatus = result.body;
        return result;
      },
      (source) => ({ kind: 'done', message: 'console.moderation.sourceSet', params: { host: source.id, status: source.status } }),
    ),
  );

  // ---- a story: correction and retraction

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
      visit.client.readPublic<StoryResponse>(`/v1/stories/${seg(id)}`),
      visit.client.readPublic<VersionsResponse>(`/v1/stories/${seg(id)}/versions`),
      visit.client.read<LegalHoldsPage>('/v1/admin/moderation/legal-holds', visit.actor, { storyId: id, status: 'ACTIVE', limit: '20' }),
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
      const result = await visit.client.write<CorrectionResponse>(`/v1/admin/stories/${seg(id)}/correction`, visit.actor, {
        changes: correction.changes,
        note: correction.note,
      });
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
      const story = must(await visit.client.readPublic<StoryResponse>(`/v1/stories/${seg(request.params.id)}`));
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
      const result = await visit.client.write<CorrectionResponse>(`/v1/admin/stories/${seg(id)}/retraction`, visit.actor, {
        reason: request.body.reason,
      });
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
    failure: ApiFailure,
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

  // ---- the webhook delivery log

  app.get('/console/moderation/webhooks', { schema: { ...HIDDEN, querystring: DeliveriesPageQuery } }, async (request, reply) => {
    const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'moderation');
    if (!visit) return reply;
    const state = request.query.state || undefined;
    const eventId = request.query.event || undefined;
    const log = await deliveryLog({
      limit: 20,
      ...(state ? { state } : {}),
      ...(eventId ? { eventId } : {}),
      ...(request.query.before ? { before: request.query.before } : {}),
    });
    return sendPage(reply, DeliveriesPage, {
      lang: visit.lang,
      areas: visit.areas,
      log,
      state: state ?? null,
      eventId: eventId ?? null,
      before: request.query.before || null,
    });
  });
};
