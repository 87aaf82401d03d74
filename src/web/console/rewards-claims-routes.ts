import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import type { Lang } from '../../platform/i18n/index.js';
import { BatchFreezeBody, BatchUnfreezeBody, FinalizeBody, type Batch } from '../../rewards/claims/schemas.js';
import { href } from '../site/links.js';
import { sendPage } from '../site/render.js';
import { actIn, enter, formRoute, HIDDEN, must, type ConsoleDeps } from './gate.js';
import { BatchFreezeForm, FinalizeForm, RewardsIdParams, RewardsPageQuery } from './rewards-forms.js';
import { RewardsClaimsPage } from './views/rewards-claims.js';

/** Rewards (rewards admins), the claim rail: its status, its batches, finalizing a batch, freezing one. */
export const rewardsClaimsRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const { claims, claimFreezes } = deps.services;
  const actRewards = actIn(deps, 'rewards');
  const guarded = formRoute(app);
  const door = (request: FastifyRequest, reply: FastifyReply, lang: Lang | undefined) =>
    enter(deps, request, reply, lang ?? 'en', 'rewards');

  app.get('/console/rewards/claims', { schema: { ...HIDDEN, querystring: RewardsPageQuery } }, async (request, reply) => {
    const visit = door(request, reply, request.query.lang);
    if (!visit) return reply;
    const [status, batches] = await Promise.all([
      visit.calls.readPublic(() => claims.status()),
      visit.calls.readPublic(() => claims.batches(20, request.query.cursor)),
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
    actRewards<Static<typeof Batch>>(
      request,
      reply,
      { ...request.body, back: claimsBack(request.body.lang) },
      ({ calls, actor }) =>
        calls.write(actor, (person, body) => claims.finalize(person, body.claimWindowDays ?? 90), {
          admin: 'rewards',
          body: {
            schema: FinalizeBody,
            value: request.body.claimWindowDays ? { claimWindowDays: Number(request.body.claimWindowDays) } : {},
          },
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
        actRewards<Static<typeof Batch>>(
          request,
          reply,
          { ...request.body, back: claimsBack(request.body.lang) },
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
