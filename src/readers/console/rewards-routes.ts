import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import type { Lang } from '../../platform/i18n/index.js';
import type { Batch, BatchList, ClaimStatus } from '../../rewards/claims/schemas.js';
import type { RewardsPolicy } from '../../rewards/policy/schemas.js';
import type { ReviewCase, ReviewQueue } from '../../rewards/review/schemas.js';
import type { PayoutsPage, Preview, Settlement, SettlementDetail, SettlementsPage } from '../../rewards/settlements/schemas.js';
import type { SearchResponse } from '../../newsroom/search/schemas.js';
import type { ApiResult } from '../site/api.js';
import { finish, flashOf } from '../site/form-replies.js';
import { href } from '../site/links.js';
import { sendPage } from '../site/render.js';
import type { Flash } from '../site/session.js';
import { ConsoleQuery } from './forms.js';
import { act, consoleBack, enter, formRoute, HIDDEN, must, seg, type ConsoleDeps, type ConsoleVisit } from './gate.js';
import {
  AppealCaseForm,
  AssignCaseForm,
  BatchFreezeForm,
  EscalateCaseForm,
  FinalizeForm,
  FreezeForm,
  OpenCaseForm,
  PolicyApplyForm,
  PolicyForm,
  PreviewPageQuery,
  ResolveCaseForm,
  RewardsIdParams,
  RewardsPageQuery,
  RunForm,
} from './rewards-forms.js';
import { policyChange } from './rewards-policy.js';
import { RewardsClaimsPage } from './views/rewards-claims.js';
import { RewardsFreezesPage, RewardsReviewPage } from './views/rewards-review.js';
import { RewardsPreviewPage, RewardsSettlementPage, RewardsSettlementsPage } from './views/rewards-settlements.js';
import { RewardsPolicyConfirmPage, RewardsPolicyPage } from './views/rewards.js';

type Policy = Static<typeof RewardsPolicy>;
type PreviewBody = Static<typeof Preview>;
type Case = Static<typeof ReviewCase>;
type PayoutStatus = 'PAYABLE' | 'PENDING_RECIPIENT' | 'FROZEN' | 'REVIEW';
const PAYOUT_STATUSES: readonly PayoutStatus[] = ['PAYABLE', 'PENDING_RECIPIENT', 'FROZEN', 'REVIEW'];

/** The queue holds at most this many items (the API's largest page; it has no cursor). */
const QUEUE_LIMIT = '100';

/** The totals a run is confirmed against: what the person saw on the preview. */
const totalsOf = (preview: PreviewBody) => ({
  policyVersion: String(preview.policyVersion),
  pool: preview.pool.base,
  escrow: preview.escrow.base,
  paid: preview.paid.base,
  storyCount: String(preview.storyCount),
  payoutCount: String(preview.payoutCount),
});

const refused = (message: string, params?: Record<string, string | number>): Flash => ({
  kind: 'refused',
  message,
  ...(params ? { params } : {}),
});

/**
 * Rewards (rewards admins): the policy with a confirm step showing the change, settlements (a preview, and a
 * run confirmed against the preview's totals), one settlement with its payouts, the review queue and cases
 * through their states, recipient and story freezes, and the claim rail's batches. Every action is the
 * service's own API, signed as the person.
 */
export const rewardsRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const guarded = formRoute(app);
  const door = (request: FastifyRequest, reply: FastifyReply, lang: Lang | undefined) =>
    enter(deps, request, reply, lang ?? 'en', 'rewards');

  /** A form whose page to come back to depends on its outcome (a run goes to the settlement it made). */
  async function perform(
    request: FastifyRequest,
    reply: FastifyReply,
    form: { lang?: Lang; back?: string },
    call: (visit: ConsoleVisit) => Promise<{ flash: Flash; to?: string }>,
  ) {
    const lang = form.lang ?? 'en';
    const visit = enter(deps, request, reply, lang, 'rewards');
    if (!visit) return reply;
    const { flash, to } = await call(visit);
    return finish(request, reply, flash, to ?? consoleBack(form.back, lang), lang);
  }

  // ---- the policy ---------------------------------------------------------------------------------------------

  app.get('/console/rewards', { schema: { ...HIDDEN, querystring: ConsoleQuery } }, async (request, reply) => {
    const visit = door(request, reply, request.query.lang);
    if (!visit) return reply;
    const policy = must(await visit.client.readPublic<Policy>('/v1/rewards/policy'));
    return sendPage(reply, RewardsPolicyPage, { lang: visit.lang, areas: visit.areas, policy });
  });

  app.post('/console/rewards/policy/preview', { ...guarded, schema: { ...HIDDEN, body: PolicyForm } }, async (request, reply) => {
    const lang = request.body.lang ?? 'en';
    const visit = door(request, reply, lang);
    if (!visit) return reply;
    const policy = must(await visit.client.readPublic<Policy>('/v1/rewards/policy'));
    const change = policyChange(policy, request.body);
    if ('refused' in change) return finish(request, reply, refused(change.refused, change.params), href('/console/rewards', lang), lang);
    return sendPage(reply, RewardsPolicyConfirmPage, { lang, areas: visit.areas, policy, change, input: request.body });
  });

  app.post('/console/rewards/policy', { ...guarded, schema: { ...HIDDEN, body: PolicyApplyForm } }, (request, reply) =>
    act<Policy>(
      deps,
      request,
      reply,
      { ...request.body, back: href('/console/rewards', request.body.lang ?? 'en') },
      'rewards',
      async ({ client, actor }) => {
        const current = await client.readPublic<Policy>('/v1/rewards/policy');
        if (!current.ok) return current;
        // the confirm page showed the change against this version: another change since is shown again, not overwritten
        if (String(current.body.version) !== request.body.baseVersion) return refusal('CONSOLE_POLICY_CHANGED');
        const change = policyChange(current.body, request.body);
        if ('refused' in change) return refusal(change.refused);
        return client.write<Policy>('/v1/rewards/policy', actor, change.body);
      },
      (policy) => ({ kind: 'done', message: 'console.rewards.policyApplied', params: { version: policy.version } }),
    ),
  );

  // ---- settlements --------------------------------------------------------------------------------------------

  app.get('/console/rewards/settlements', { schema: { ...HIDDEN, querystring: RewardsPageQuery } }, async (request, reply) => {
    const visit = door(request, reply, request.query.lang);
    if (!visit) return reply;
    const page = must(
      await visit.client.read<Static<typeof SettlementsPage>>('/v1/rewards/settlements', visit.actor, {
        limit: '20',
        cursor: request.query.cursor,
      }),
    );
    return sendPage(reply, RewardsSettlementsPage, { lang: visit.lang, areas: visit.areas, page, cursor: request.query.cursor ?? null });
  });

  app.get('/console/rewards/settlements/preview', { schema: { ...HIDDEN, querystring: PreviewPageQuery } }, async (request, reply) => {
    const visit = door(request, reply, request.query.lang);
    if (!visit) return reply;
    const totalPoolOrbs = request.query.totalPoolOrbs?.trim() ?? '';
    if (!totalPoolOrbs) return reply.redirect(href('/console/rewards/settlements', visit.lang), 303);
    const result = await visit.client.read<PreviewBody>('/v1/rewards/settlements/preview', visit.actor, { totalPoolOrbs });
    if (!result.ok && result.status >= 500) must(result);
    return sendPage(reply, RewardsPreviewPage, {
      lang: visit.lang,
      areas: visit.areas,
      totalPoolOrbs,
      preview: result.ok ? result.body : null,
      refusal: result.ok ? null : flashOf(result, () => ({ kind: 'done', message: '' })),
    });
  });

  app.post('/console/rewards/settlements/run', { ...guarded, schema: { ...HIDDEN, body: RunForm } }, (request, reply) =>
    perform(request, reply, request.body, async ({ client, actor, lang }) => {
      const { totalPoolOrbs } = request.body;
      const previewPage = href('/console/rewards/settlements/preview', lang, { totalPoolOrbs });
      const preview = await client.read<PreviewBody>('/v1/rewards/settlements/preview', actor, { totalPoolOrbs });
      if (!preview.ok) return { flash: flashOf(preview, () => ({ kind: 'done', message: '' })), to: previewPage };
      const now = totalsOf(preview.body);
      const seen = Object.keys(now).every((key) => request.body[key as keyof typeof now] === now[key as keyof typeof now]);
      if (!seen) return { flash: refused('CONSOLE_TOTALS_CHANGED'), to: previewPage };
      const run = await client.write<Static<typeof Settlement>>('/v1/rewards/settlements/run', actor, { totalPoolOrbs });
      if (!run.ok) return { flash: flashOf(run, () => ({ kind: 'done', message: '' })), to: previewPage };
      return {
        flash: { kind: 'done', message: 'console.rewards.settled', params: { id: run.body.id, count: run.body.payoutCount } },
        to: href(`/console/rewards/settlements/${seg(run.body.id)}`, lang),
      };
    }),
  );

  app.get(
    '/console/rewards/settlements/:id',
    { schema: { ...HIDDEN, params: RewardsIdParams, querystring: RewardsPageQuery } },
    async (request, reply) => {
      const visit = door(request, reply, request.query.lang);
      if (!visit) return reply;
      const status = PAYOUT_STATUSES.find((s) => s === request.query.status);
      const [settlement, payouts] = await Promise.all([
        visit.client.read<Static<typeof SettlementDetail>>(`/v1/rewards/settlements/${seg(request.params.id)}`, visit.actor),
        visit.client.read<Static<typeof PayoutsPage>>('/v1/rewards/payouts', visit.actor, {
          settlementId: request.params.id,
          status,
          limit: '50',
          cursor: request.query.cursor,
        }),
      ]);
      return sendPage(reply, RewardsSettlementPage, {
        lang: visit.lang,
        areas: visit.areas,
        settlement: must(settlement),
        payouts: must(payouts),
        status: status ?? null,
        cursor: request.query.cursor ?? null,
      });
    },
  );

  // ---- review -------------------------------------------------------------------------------------------------

  app.get('/console/rewards/review', { schema: { ...HIDDEN, querystring: ConsoleQuery } }, async (request, reply) => {
    const visit = door(request, reply, request.query.lang);
    if (!visit) return reply;
    const [queue, decided] = await Promise.all([
      visit.client.read<Static<typeof ReviewQueue>>('/v1/admin/rewards/review-queue', visit.actor, { limit: QUEUE_LIMIT }),
      // closed cases leave the queue; the public search lists them (without target or reason), for an appeal
      visit.client.readPublic<SearchResponse>('/v1/search', { queue: 'RESOLVED', limit: '100', lang: visit.lang }),
    ]);
    return sendPage(reply, RewardsReviewPage, {
      lang: visit.lang,
      areas: visit.areas,
      queue: must(queue),
      decided: decided.ok ? (decided.body.reviewCases?.items ?? []) : [],
      me: visit.actor.actorId,
    });
  });

  const reviewBack = (lang: Lang | undefined) => href('/console/rewards/review', lang ?? 'en');
  const caseMoved = (message: string) => (item: Case) => ({ kind: 'done' as const, message, params: { id: item.id } });

  app.post('/console/rewards/review/cases', { ...guarded, schema: { ...HIDDEN, body: OpenCaseForm } }, (request, reply) =>
    act<Case>(
      deps,
      request,
      reply,
      { ...request.body, back: reviewBack(request.body.lang) },
      'rewards',
      ({ client, actor }) => {
        const { targetType, targetId, reason, assignedToActorId } = request.body;
        return client.write('/v1/admin/rewards/review-cases', actor, {
          targetType,
          targetId,
          reason,
          ...(assignedToActorId ? { assignedToActorId } : {}),
        });
      },
      caseMoved('console.rewards.caseOpened'),
    ),
  );

  const casePath = (id: string, move: string) => `/v1/admin/rewards/review-cases/${seg(id)}/${move}`;
  const note = (text: string | undefined) => (text?.trim() ? { note: text.trim() } : {});

  app.post(
    '/console/rewards/review/cases/:id/assign',
    { ...guarded, schema: { ...HIDDEN, params: RewardsIdParams, body: AssignCaseForm } },
    (request, reply) =>
      act<Case>(
        deps,
        request,
        reply,
        { ...request.body, back: reviewBack(request.body.lang) },
        'rewards',
        ({ client, actor }) =>
          client.write(casePath(request.params.id, 'assign'), actor, {
            assigneeActorId: request.body.assigneeActorId,
            ...note(request.body.note),
          }),
        caseMoved('console.rewards.caseAssigned'),
      ),
  );

  app.post(
    '/console/rewards/review/cases/:id/escalate',
    { ...guarded, schema: { ...HIDDEN, params: RewardsIdParams, body: EscalateCaseForm } },
    (request, reply) =>
      act<Case>(
        deps,
        request,
        reply,
        { ...request.body, back: reviewBack(request.body.lang) },
        'rewards',
        ({ client, actor }) => client.write(casePath(request.params.id, 'assign'), actor, { escalate: true, ...note(request.body.note) }),
        caseMoved('console.rewards.caseEscalated'),
      ),
  );

  app.post(
    '/console/rewards/review/cases/:id/appeal',
    { ...guarded, schema: { ...HIDDEN, params: RewardsIdParams, body: AppealCaseForm } },
    (request, reply) =>
      act<Case>(
        deps,
        request,
        reply,
        { ...request.body, back: reviewBack(request.body.lang) },
        'rewards',
        ({ client, actor }) => client.write(casePath(request.params.id, 'appeal'), actor, { note: request.body.note }),
        caseMoved('console.rewards.caseAppealed'),
      ),
  );

  app.post(
    '/console/rewards/review/cases/:id/resolve',
    { ...guarded, schema: { ...HIDDEN, params: RewardsIdParams, body: ResolveCaseForm } },
    (request, reply) =>
      act<Case>(
        deps,
        request,
        reply,
        { ...request.body, back: reviewBack(request.body.lang) },
        'rewards',
        ({ client, actor }) =>
          client.write(casePath(request.params.id, 'resolve'), actor, {
            outcome: request.body.outcome,
            resolution: request.body.resolution,
            releasePayouts: request.body.releasePayouts === '1',
          }),
        (item) => caseMoved(item.status === 'DISMISSED' ? 'console.rewards.caseDismissed' : 'console.rewards.caseResolved')(item),
      ),
  );

  // ---- freezes ------------------------------------------------------------------------------------------------

  app.get('/console/rewards/freezes', { schema: { ...HIDDEN, querystring: ConsoleQuery } }, async (request, reply) => {
    const visit = door(request, reply, request.query.lang);
    if (!visit) return reply;
    const queue = must(
      await visit.client.read<Static<typeof ReviewQueue>>('/v1/admin/rewards/review-queue', visit.actor, { limit: QUEUE_LIMIT }),
    );
    return sendPage(reply, RewardsFreezesPage, { lang: visit.lang, areas: visit.areas, queue });
  });

  app.post('/console/rewards/freezes', { ...guarded, schema: { ...HIDDEN, body: FreezeForm } }, (request, reply) =>
    act<{ targetType: string; targetId: string; frozen: boolean; payoutsFrozen: number; payoutsToReview: number }>(
      deps,
      request,
      reply,
      { ...request.body, back: href('/console/rewards/freezes', request.body.lang ?? 'en') },
      'rewards',
      ({ client, actor }) => {
        const { targetType, targetId, move, reason } = request.body;
        const kind = targetType === 'RECIPIENT' ? 'recipients' : 'stories';
        return client.write(`/v1/admin/rewards/${kind}/${seg(targetId)}/${move}`, actor, { reason });
      },
      (result) => ({
        kind: 'done',
        message: result.frozen ? 'console.rewards.frozen' : 'console.rewards.unfrozen',
        params: {
          target: result.targetId,
          count: result.frozen ? result.payoutsFrozen : result.payoutsToReview,
        },
      }),
    ),
  );

  // ---- the claim rail -----------------------------------------------------------------------------------------

  app.get('/console/rewards/claims', { schema: { ...HIDDEN, querystring: RewardsPageQuery } }, async (request, reply) => {
    const visit = door(request, reply, request.query.lang);
    if (!visit) return reply;
    const [status, batches] = await Promise.all([
      visit.client.readPublic<Static<typeof ClaimStatus>>('/v1/rewards/claims/status'),
      visit.client.readPublic<Static<typeof BatchList>>('/v1/rewards/claims/batches', { limit: '20', cursor: request.query.cursor }),
    ]);
    return sendPage(reply, RewardsClaimsPage, {
      lang: visit.lang,
      areas: visit.areas,
      status: must(status),
      batches: must(batches),
      cursor: request.query.cursor ?? null,
    });
  });

  const claimsBack = (lang: Lang | undefined) => href('/console/rewards/claims', lang ?? 'en');

  app.post('/console/rewards/claims/finalize', { ...guarded, schema: { ...HIDDEN, body: FinalizeForm } }, (request, reply) =>
    act<Static<typeof Batch>>(
      deps,
      request,
      reply,
      { ...request.body, back: claimsBack(request.body.lang) },
      'rewards',
      ({ client, actor }) =>
        client.write('/v1/admin/rewards/batches/finalize', actor, {
          ...(request.body.claimWindowDays ? { claimWindowDays: Number(request.body.claimWindowDays) } : {}),
        }),
      (batch) => ({
        kind: 'done',
        message: 'console.rewards.finalized',
        params: { id: batch.id, count: batch.leafCount, total: batch.total.display },
      }),
    ),
  );

  for (const move of ['freeze', 'unfreeze'] as const) {
    app.post(
      `/console/rewards/claims/batches/:id/${move}`,
      { ...guarded, schema: { ...HIDDEN, params: RewardsIdParams, body: BatchFreezeForm } },
      (request, reply) =>
        act<Static<typeof Batch>>(
          deps,
          request,
          reply,
          { ...request.body, back: claimsBack(request.body.lang) },
          'rewards',
          ({ client, actor }) => {
            const evidence = move === 'freeze' ? 'onChainFreezeTxHash' : 'onChainUnfreezeTxHash';
            return client.write(`/v1/admin/rewards/batches/${seg(request.params.id)}/${move}`, actor, {
              reason: request.body.reason,
              ...(request.body.txHash ? { [evidence]: request.body.txHash } : {}),
            });
          },
          (batch) => ({
            kind: 'done',
            message: batch.frozen ? 'console.rewards.batchFrozen' : 'console.rewards.batchUnfrozen',
            params: { id: batch.id },
          }),
        ),
    );
  }
};

/** A refusal the console words itself (a form that cannot become an API request as it is). */
const refusal = (code: string): ApiResult<never> => ({ ok: false, status: 409, failure: { code } });
