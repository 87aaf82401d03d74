import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import { CreateRequestBody } from '../../governance/control-plane/schemas.js';
import type { Lang } from '../../platform/i18n/index.js';
import { BatchFreezeBody, BatchUnfreezeBody, FinalizeBody, type Batch } from '../../rewards/claims/schemas.js';
import type { CallResult } from '../site/calls.js';
import { flashOf } from '../site/form-replies.js';
import { href } from '../site/links.js';
import { sendPage } from '../site/render.js';
import { beneficiaryNames } from './beneficiary-names.js';
import { actIn, enter, formRoute, HIDDEN, must, performIn, refusal, refused, type ConsoleDeps, type ConsoleVisit } from './gate.js';
import { openMoneyRequests } from './money-requests.js';
import {
  BatchFreezeForm,
  FinalizeForm,
  FinalizeQuery,
  FinalizeRequestForm,
  RewardsIdParams,
  RewardsPageQuery,
  UseMoneyRequestForm,
} from './rewards-forms.js';
import { RewardsClaimsPage } from './views/rewards-claims.js';
import { RewardsFinalizePage, type FinalizePreview } from './views/rewards-finalize.js';

const DAY_MS = 86_400_000;
/** The claim window a form names (empty: the API's default of 90 days). */
const windowOf = (days: string | undefined) => (days ? Number(days) : 90);
const done = () => ({ kind: 'done' as const, message: '' });

/**
 * Rewards (rewards admins), the claim rail: its status, its batches, finalizing a batch after a confirm page that
 * says what cannot be undone (above SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS: the batch.finalize request for a second
 * rewards admin instead, approved and used on the claims page), freezing one.
 */
export const rewardsClaimsRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const { claims, claimFreezes, controlPlane } = deps.services;
  const actRewards = actIn(deps, 'rewards');
  const perform = performIn(deps, 'rewards');
  const guarded = formRoute(app);
  const door = (request: FastifyRequest, reply: FastifyReply, lang: Lang | undefined) =>
    enter(deps, request, reply, lang ?? 'en', 'rewards');

  /** What a finalize with this claim window would batch now (null: nothing payable); a window out of 1 to 365 is refused. */
  function previewOf(visit: Pick<ConsoleVisit, 'calls' | 'actor'>, days: number): Promise<CallResult<FinalizePreview | null>> {
    if (!Number.isInteger(days) || days < 1 || days > 365) return Promise.resolve(refusal('CONSOLE_CLAIM_WINDOW'));
    return visit.calls.read(visit.actor, () => claims.finalizePreview(days), { admin: 'rewards' });
  }

  /** The names of the people a batch pays (the first 100 recipients, largest first). */
  async function namesOf(previews: readonly (FinalizePreview | null)[]) {
    const recipients = previews.flatMap((p) => (p ? p.recipients.slice(0, 100) : []));
    const named = await beneficiaryNames(
      deps.services,
      recipients.map((r) => ({ beneficiaryKind: 'HUMAN' as const, beneficiaryId: r.linkedHumanId })),
    );
    return Object.fromEntries(named);
  }

  app.get('/console/rewards/claims', { schema: { ...HIDDEN, querystring: RewardsPageQuery } }, async (request, reply) => {
    const visit = door(request, reply, request.query.lang);
    if (!visit) return reply;
    const [status, batches, open] = await Promise.all([
      visit.calls.readPublic(() => claims.status()),
      visit.calls.readPublic(() => claims.batches(20, request.query.cursor)),
      openMoneyRequests(deps.services, visit, 'batch.finalize'),
    ]);
    // what each open request's window would batch now: the request is shown against it (same digest) or as stale
    const windows = [...new Set(open.requests.map((item) => (item.payload as { claimWindowDays?: string }).claimWindowDays ?? '90'))];
    const current: Record<string, FinalizePreview | null> = {};
    if (must(status).state === 'ACTIVE') {
      for (const days of windows) {
        const preview = await previewOf(visit, Number(days));
        if (preview.ok) current[days] = preview.body;
      }
    }
    return sendPage(reply, RewardsClaimsPage, {
      lang: visit.lang,
      areas: visit.areas,
      status: must(status),
      batches: must(batches),
      cursor: request.query.cursor ?? null,
      open,
      current,
      names: await namesOf(Object.values(current)),
    });
  });

  const claimsPage = (lang: Lang | undefined) => href('/console/rewards/claims', lang ?? 'en');
  const confirmPage = (lang: Lang, claimWindowDays: string | undefined) =>
    href('/console/rewards/claims/finalize', lang, claimWindowDays ? { claimWindowDays } : {});

  /** The confirm step of a finalize: what it would batch now, what cannot be undone, and the button (or the request). */
  app.get('/console/rewards/claims/finalize', { schema: { ...HIDDEN, querystring: FinalizeQuery } }, async (request, reply) => {
    const visit = door(request, reply, request.query.lang);
    if (!visit) return reply;
    const claimWindowDays = windowOf(request.query.claimWindowDays);
    const result = await previewOf(visit, claimWindowDays);
    if (!result.ok && result.status >= 500) must(result);
    const preview = result.ok ? result.body : null;
    return sendPage(reply, RewardsFinalizePage, {
      lang: visit.lang,
      areas: visit.areas,
      claimWindowDays,
      deadline: new Date(deps.clock.now() + claimWindowDays * DAY_MS).toISOString(),
      preview,
      names: await namesOf([preview]),
      refusal: result.ok ? null : flashOf(result, done),
    });
  });

  /**
   * Finalizes the batch the person confirmed: without the confirm page's digest, that page comes first; the console
   * previews again and finalizes only if the batch is the same (else back to the confirm page, as it is now).
   */
  app.post('/console/rewards/claims/finalize', { ...guarded, schema: { ...HIDDEN, body: FinalizeForm } }, (request, reply) => {
    const { claimWindowDays, previewDigest, lang } = request.body;
    if (!previewDigest) return reply.redirect(confirmPage(lang ?? 'en', claimWindowDays), 303);
    return perform(request, reply, request.body, async (visit) => {
      const back = confirmPage(visit.lang, claimWindowDays);
      const preview = await previewOf(visit, windowOf(claimWindowDays));
      if (!preview.ok) return { flash: flashOf(preview, done), to: back };
      if (preview.body?.previewDigest !== previewDigest) return { flash: refused('CONSOLE_BATCH_CHANGED'), to: back };
      const batch = await visit.calls.write(visit.actor, (person, body) => claims.finalize(person, body.claimWindowDays ?? 90), {
        admin: 'rewards',
        body: { schema: FinalizeBody, value: { claimWindowDays: windowOf(claimWindowDays) } },
      });
      if (!batch.ok) return { flash: flashOf(batch, done), to: back };
      return { flash: finalized(batch.body), to: claimsPage(visit.lang) };
    });
  });

  /** Asks for a second rewards admin: files the batch.finalize request of the batch the person confirmed. */
  app.post('/console/rewards/claims/request', { ...guarded, schema: { ...HIDDEN, body: FinalizeRequestForm } }, (request, reply) =>
    perform(request, reply, request.body, async (visit) => {
      const { claimWindowDays, previewDigest, reason } = request.body;
      const back = confirmPage(visit.lang, claimWindowDays);
      const preview = await previewOf(visit, windowOf(claimWindowDays));
      if (!preview.ok) return { flash: flashOf(preview, done), to: back };
      if (!preview.body || preview.body.previewDigest !== previewDigest) return { flash: refused('CONSOLE_BATCH_CHANGED'), to: back };
      const filed = await visit.calls.write(visit.actor, (person, body) => controlPlane.create(person, body), {
        admin: 'rewards',
        body: { schema: CreateRequestBody, value: { ...preview.body.secondApproval.request, reason } },
      });
      if (!filed.ok) return { flash: flashOf(filed, done), to: back };
      return {
        flash: { kind: 'done', message: 'console.rewards.finalizeRequestFiled', params: { orbs: preview.body.total.display } },
        to: claimsPage(visit.lang),
      };
    }),
  );

  /** Finalizes with an approved (EXECUTED) batch.finalize request: exactly its window, with its id (the finalize consumes it). */
  app.post(
    '/console/rewards/requests/:id/finalize',
    { ...guarded, schema: { ...HIDDEN, params: RewardsIdParams, body: UseMoneyRequestForm } },
    (request, reply) =>
      perform(request, reply, request.body, async ({ calls, actor, lang }) => {
        const id = request.params.id;
        const read = await calls.read(actor, () => controlPlane.get(id), { admin: 'rewards' });
        if (!read.ok) return { flash: flashOf(read, done) };
        const payload = read.body.payload as { claimWindowDays?: unknown };
        if (read.body.action !== 'batch.finalize' || typeof payload.claimWindowDays !== 'string')
          return { flash: refused('CONTROL_PLANE_REQUEST_MISMATCH') };
        const claimWindowDays = Number(payload.claimWindowDays);
        const batch = await calls.write(
          actor,
          (person, body) => claims.finalize(person, body.claimWindowDays ?? 90, body.controlPlaneRequestId),
          { admin: 'rewards', body: { schema: FinalizeBody, value: { claimWindowDays, controlPlaneRequestId: id } } },
        );
        if (!batch.ok) return { flash: flashOf(batch, done) };
        return { flash: finalized(batch.body), to: claimsPage(lang) };
      }),
  );

  for (const move of ['freeze', 'unfreeze'] as const) {
    app.post(
      `/console/rewards/claims/batches/:id/${move}`,
      { ...guarded, schema: { ...HIDDEN, params: RewardsIdParams, body: BatchFreezeForm } },
      (request, reply) =>
        actRewards<Static<typeof Batch>>(
          request,
          reply,
          { ...request.body, back: claimsPage(request.body.lang) },
          ({ calls, actor }) => {
            const { id } = request.params;
            const { reason, txHash } = request.body;
            return move === 'freeze'
              ? calls.write(actor, (person, body) => claimFreezes.freeze(person, id, body), {
                  admin: 'rewards',
                  body: { schema: BatchFreezeBody, value: { reason, ...(txHash ? { onChainFreezeTxHash: txHash } : {}) } },
                })
              : calls.write(actor, (person, body) => claimFreezes.unfreeze(person, id, body), {
                  admin: 'rewards',
                  body: { schema: BatchUnfreezeBody, value: { reason, ...(txHash ? { onChainUnfreezeTxHash: txHash } : {}) } },
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

/** The sentence of a finalized batch. */
const finalized = (batch: Static<typeof Batch>) => ({
  kind: 'done' as const,
  message: 'console.rewards.finalized',
  params: { id: batch.id, count: batch.leafCount, total: batch.total.display },
});
