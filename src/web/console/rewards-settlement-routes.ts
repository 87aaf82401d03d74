import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import type { Lang } from '../../platform/i18n/index.js';
import { CreateRequestBody } from '../../governance/control-plane/schemas.js';
import { RunBody, type Preview } from '../../rewards/settlements/schemas.js';
import { flashOf } from '../site/form-replies.js';
import { href } from '../site/links.js';
import { sendPage } from '../site/render.js';
import { beneficiaryNames } from './beneficiary-names.js';
import { enter, formRoute, HIDDEN, must, performIn, refused, seg, type ConsoleDeps } from './gate.js';
import { openMoneyRequests } from './money-requests.js';
import { MoneyRequestForm, PreviewPageQuery, RewardsIdParams, RewardsPageQuery, RunForm, UseMoneyRequestForm } from './rewards-forms.js';
import { RewardsPreviewPage } from './views/rewards-preview.js';
import { RewardsSettlementPage, RewardsSettlementsPage } from './views/rewards-settlements.js';

type PreviewBody = Static<typeof Preview>;

/** The totals a run is confirmed against: what the person saw on the preview. */
const totalsOf = (preview: PreviewBody) => ({
  policyVersion: String(preview.policyVersion),
  pool: preview.pool.base,
  escrow: preview.escrow.base,
  paid: preview.paid.base,
  storyCount: String(preview.storyCount),
  payoutCount: String(preview.payoutCount),
});

/**
 * Rewards (rewards admins), settlements: the list, a preview, a run confirmed against the preview's totals, and
 * one settlement with its payouts.
 */
export const rewardsSettlementRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const { settlements, controlPlane } = deps.services;
  const guarded = formRoute(app);
  const door = (request: FastifyRequest, reply: FastifyReply, lang: Lang | undefined) =>
    enter(deps, request, reply, lang ?? 'en', 'rewards');

  const perform = performIn(deps, 'rewards');

  app.get('/console/rewards/settlements', { schema: { ...HIDDEN, querystring: RewardsPageQuery } }, async (request, reply) => {
    const visit = door(request, reply, request.query.lang);
    if (!visit) return reply;
    const page = must(await visit.calls.read(visit.actor, () => settlements.list(20, request.query.cursor), { admin: 'rewards' }));
    return sendPage(reply, RewardsSettlementsPage, {
      lang: visit.lang,
      areas: visit.areas,
      page,
      cursor: request.query.cursor ?? null,
      runs: await openMoneyRequests(deps.services, visit, 'settlement.run'),
    });
  });

  app.get('/console/rewards/settlements/preview', { schema: { ...HIDDEN, querystring: PreviewPageQuery } }, async (request, reply) => {
    const visit = door(request, reply, request.query.lang);
    if (!visit) return reply;
    const totalPoolOrbs = request.query.totalPoolOrbs ?? '';
    if (!totalPoolOrbs) return reply.redirect(href('/console/rewards/settlements', visit.lang), 303);
    const result = await visit.calls.read(visit.actor, (actor) => settlements.preview(actor, totalPoolOrbs), { admin: 'rewards' });
    if (!result.ok && result.status >= 500) must(result);
    const named = result.ok ? await beneficiaryNames(deps.services, result.body.beneficiaries.slice(0, 100)) : new Map<string, string>();
    return sendPage(reply, RewardsPreviewPage, {
      lang: visit.lang,
      areas: visit.areas,
      totalPoolOrbs,
      preview: result.ok ? result.body : null,
      names: Object.fromEntries(named),
      refusal: result.ok ? null : flashOf(result, () => ({ kind: 'done', message: '' })),
    });
  });

  app.post('/console/rewards/settlements/run', { ...guarded, schema: { ...HIDDEN, body: RunForm } }, (request, reply) =>
    perform(request, reply, request.body, async ({ calls, actor, lang }) => {
      const { totalPoolOrbs } = request.body;
      const previewPage = href('/console/rewards/settlements/preview', lang, { totalPoolOrbs });
      const preview = await calls.read(actor, (person) => settlements.preview(person, totalPoolOrbs), { admin: 'rewards' });
      if (!preview.ok) return { flash: flashOf(preview, () => ({ kind: 'done', message: '' })), to: previewPage };
      const now = totalsOf(preview.body);
      const seen = Object.keys(now).every((key) => request.body[key as keyof typeof now] === now[key as keyof typeof now]);
      if (!seen) return { flash: refused('CONSOLE_TOTALS_CHANGED'), to: previewPage };
      const run = await calls.write(actor, (person, body) => settlements.run(person, body.totalPoolOrbs), {
        admin: 'rewards',
        body: { schema: RunBody, value: { totalPoolOrbs } },
      });
      if (!run.ok) return { flash: flashOf(run, () => ({ kind: 'done', message: '' })), to: previewPage };
      return {
        flash: { kind: 'done', message: 'console.rewards.settled', params: { id: run.body.id, count: run.body.payoutCount } },
        to: href(`/console/rewards/settlements/${seg(run.body.id)}`, lang),
      };
    }),
  );

  /**
   * Asks for a second rewards admin: files the settlement.run request of the preview the person saw (refused when
   * the preview changed since), which then waits on the settlements page for another rewards admin.
   */
  app.post('/console/rewards/settlements/request', { ...guarded, schema: { ...HIDDEN, body: MoneyRequestForm } }, (request, reply) =>
    perform(request, reply, request.body, async ({ calls, actor, lang }) => {
      const { totalPoolOrbs, previewDigest, reason } = request.body;
      const previewPage = href('/console/rewards/settlements/preview', lang, { totalPoolOrbs });
      const preview = await calls.read(actor, (person) => settlements.preview(person, totalPoolOrbs), { admin: 'rewards' });
      if (!preview.ok) return { flash: flashOf(preview, () => ({ kind: 'done', message: '' })), to: previewPage };
      if (preview.body.previewDigest !== previewDigest) return { flash: refused('CONSOLE_TOTALS_CHANGED'), to: previewPage };
      const wanted = preview.body.secondApproval.request;
      const filed = await calls.write(actor, (person, body) => controlPlane.create(person, body), {
        admin: 'rewards',
        body: { schema: CreateRequestBody, value: { ...wanted, reason } },
      });
      if (!filed.ok) return { flash: flashOf(filed, () => ({ kind: 'done', message: '' })), to: previewPage };
      return {
        flash: { kind: 'done', message: 'console.rewards.requestFiled', params: { orbs: preview.body.pool.display } },
        to: href('/console/rewards/settlements', lang),
      };
    }),
  );

  /** Runs an approved (EXECUTED) settlement.run request: exactly its pool, with its id (the run consumes it). */
  app.post(
    '/console/rewards/requests/:id/run',
    { ...guarded, schema: { ...HIDDEN, params: RewardsIdParams, body: UseMoneyRequestForm } },
    (request, reply) =>
      perform(request, reply, request.body, async ({ calls, actor, lang }) => {
        const id = request.params.id;
        const read = await calls.read(actor, () => controlPlane.get(id), { admin: 'rewards' });
        if (!read.ok) return { flash: flashOf(read, () => ({ kind: 'done', message: '' })) };
        const payload = read.body.payload as { totalPoolOrbs?: unknown };
        if (read.body.action !== 'settlement.run' || typeof payload.totalPoolOrbs !== 'string')
          return { flash: refused('CONTROL_PLANE_REQUEST_MISMATCH') };
        const totalPoolOrbs = payload.totalPoolOrbs;
        const run = await calls.write(actor, (person, body) => settlements.run(person, body.totalPoolOrbs, body.controlPlaneRequestId), {
          admin: 'rewards',
          body: { schema: RunBody, value: { totalPoolOrbs, controlPlaneRequestId: id } },
        });
        if (!run.ok) return { flash: flashOf(run, () => ({ kind: 'done', message: '' })) };
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
      const { status } = request.query;
      const { id } = request.params;
      const [settlement, payouts] = await Promise.all([
        visit.calls.read(visit.actor, () => settlements.get(id), { admin: 'rewards' }),
        visit.calls.read(visit.actor, () => settlements.payouts({ settlementId: id, status }, 50, request.query.cursor), {
          admin: 'rewards',
        }),
      ]);
      const page = must(payouts);
      const named = await beneficiaryNames(deps.services, page.items);
      return sendPage(reply, RewardsSettlementPage, {
        lang: visit.lang,
        areas: visit.areas,
        settlement: must(settlement),
        payouts: page,
        names: Object.fromEntries(named),
        status: status ?? null,
        cursor: request.query.cursor ?? null,
      });
    },
  );
};
