import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import type { Lang } from '../../platform/i18n/index.js';
import { RunBody, type Preview } from '../../rewards/settlements/schemas.js';
import { finish, flashOf } from '../site/form-replies.js';
import { href } from '../site/links.js';
import { sendPage } from '../site/render.js';
import type { Flash } from '../site/session.js';
import { consoleBack, enter, formRoute, HIDDEN, must, refused, seg, type ConsoleDeps, type ConsoleVisit } from './gate.js';
import { PreviewPageQuery, RewardsIdParams, RewardsPageQuery, RunForm } from './rewards-forms.js';
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
  const { settlements } = deps.services;
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

  app.get('/console/rewards/settlements', { schema: { ...HIDDEN, querystring: RewardsPageQuery } }, async (request, reply) => {
    const visit = door(request, reply, request.query.lang);
    if (!visit) return reply;
    const page = must(await visit.calls.read(visit.actor, () => settlements.list(20, request.query.cursor), { admin: 'rewards' }));
    return sendPage(reply, RewardsSettlementsPage, { lang: visit.lang, areas: visit.areas, page, cursor: request.query.cursor ?? null });
  });

  app.get('/console/rewards/settlements/preview', { schema: { ...HIDDEN, querystring: PreviewPageQuery } }, async (request, reply) => {
    const visit = door(request, reply, request.query.lang);
    if (!visit) return reply;
    const totalPoolOrbs = request.query.totalPoolOrbs ?? '';
    if (!totalPoolOrbs) return reply.redirect(href('/console/rewards/settlements', visit.lang), 303);
    const result = await visit.calls.read(visit.actor, (actor) => settlements.preview(actor, totalPoolOrbs), { admin: 'rewards' });
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
};
