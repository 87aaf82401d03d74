import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApproveBody, CancelBody, type ControlPlaneRequest } from '../../governance/control-plane/schemas.js';
import type { Lang } from '../../platform/i18n/index.js';
import type { CallResult } from '../site/calls.js';
import { flashOf } from '../site/form-replies.js';
import { href } from '../site/links.js';
import { sendPage } from '../site/render.js';
import { ApproveForm } from './forms.js';
import { enter, formRoute, HIDDEN, must, performIn, refused, seg, type ConsoleDeps } from './gate.js';
import { proofOf } from './proofs.js';
import { CancelMoneyRequestForm, RewardsIdParams, RewardsPageQuery } from './rewards-forms.js';
import { CancelMoneyRequestPage } from './views/money-requests.js';

const MONEY = new Set(['settlement.run', 'batch.finalize']);

/** The rewards page that lists a money request: settlements for a run, claims for a batch finalize. */
const listOf = (item: Pick<ControlPlaneRequest, 'action'>, lang: Lang) =>
  href(item.action === 'batch.finalize' ? '/console/rewards/claims' : '/console/rewards/settlements', lang);

/**
 * Rewards (rewards admins), money requests of either kind (settlement runs and batch finalizes above
 * SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS): a second rewards admin approves one in place, its filer cancels it. The
 * run or finalize an approved request is for is on its own page's routes.
 */
export const rewardsMoneyRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const { controlPlane, names } = deps.services;
  const guarded = formRoute(app);
  const perform = performIn(deps, 'rewards');

  /** A second rewards admin approves a money request, with a World ID proof bound to the request. */
  app.post(
    '/console/rewards/requests/:id/approve',
    { ...guarded, schema: { ...HIDDEN, params: RewardsIdParams, body: ApproveForm } },
    (request, reply) =>
      perform(request, reply, request.body, async ({ calls, actor, reader }) => {
        const proof = proofOf(deps.mode, reader, request.body, `control_plane_approve:${request.params.id}`);
        if (!proof) return { flash: refused('CONSOLE_PROOF_REQUIRED') };
        const approved: CallResult<ControlPlaneRequest> = await calls.write(
          actor,
          (person, body) => controlPlane.approve(person, request.params.id, body),
          { admin: 'rewards', body: { schema: ApproveBody, value: { ...proof } } },
        );
        if (!approved.ok) return { flash: flashOf(approved, () => ({ kind: 'done', message: '' })) };
        const batch = approved.body.action === 'batch.finalize';
        return { flash: { kind: 'done', message: batch ? 'console.rewards.batchRequestApproved' : 'console.rewards.requestApproved' } };
      }),
  );

  /** Cancelling one's own money request is asked once more, on a page that says what it withdraws. */
  app.get(
    '/console/rewards/requests/:id/cancel',
    { schema: { ...HIDDEN, params: RewardsIdParams, querystring: RewardsPageQuery } },
    async (request, reply) => {
      const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'rewards');
      if (!visit) return reply;
      const item = must(await visit.calls.read(visit.actor, () => controlPlane.get(request.params.id), { admin: 'rewards' }));
      // governance requests are the control plane's pages' own
      if (!MONEY.has(item.action)) must({ ok: false, status: 404, failure: { code: 'NOT_FOUND' } });
      const actors = await controlPlane.actorsOf([item.id]);
      const byActor = await names.namesOf(actors.values());
      const people = Object.fromEntries(
        [...actors].flatMap(([key, actorId]) => (byActor.has(actorId) ? [[key, byActor.get(actorId)!]] : [])),
      );
      return sendPage(reply, CancelMoneyRequestPage, {
        lang: visit.lang,
        areas: visit.areas,
        item,
        people,
        back: listOf(item, visit.lang),
      });
    },
  );

  /**
   * Cancels the person's own PENDING money request (the service refuses anyone else and an approved one); sent
   * without the confirm page's mark, it shows that page first.
   */
  app.post(
    '/console/rewards/requests/:id/cancel',
    { ...guarded, schema: { ...HIDDEN, params: RewardsIdParams, body: CancelMoneyRequestForm } },
    (request, reply) => {
      const id = request.params.id;
      if (request.body.confirmed !== '1')
        return reply.redirect(href(`/console/rewards/requests/${seg(id)}/cancel`, request.body.lang ?? 'en'), 303);
      return perform(request, reply, request.body, async ({ calls, actor, lang }) => {
        const read = await calls.read(actor, () => controlPlane.get(id), { admin: 'rewards' });
        if (!read.ok) return { flash: flashOf(read, () => ({ kind: 'done', message: '' })) };
        if (!MONEY.has(read.body.action)) return { flash: refused('CONTROL_PLANE_REQUEST_MISMATCH') };
        const { reason } = request.body;
        const cancelled = await calls.write(actor, (person, body) => controlPlane.cancel(person, id, body), {
          admin: 'rewards',
          body: { schema: CancelBody, value: reason ? { reason } : {} },
        });
        if (!cancelled.ok) return { flash: flashOf(cancelled, () => ({ kind: 'done', message: '' })), to: listOf(read.body, lang) };
        return { flash: { kind: 'done', message: 'console.rewards.requestCancelled' }, to: listOf(read.body, lang) };
      });
    },
  );
};
