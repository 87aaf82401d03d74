import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import type { Lang } from '../../platform/i18n/index.js';
import type { Batch, BatchList, ClaimStatus } from '../../rewards/claims/schemas.js';
import { href } from '../site/links.js';
import { sendPage } from '../site/render.js';
import { actIn, enter, formRoute, HIDDEN, must, seg, type ConsoleDeps } from './gate.js';
import { BatchFreezeForm, FinalizeForm, RewardsIdParams, RewardsPageQuery } from './rewards-forms.js';
import { RewardsClaimsPage } from './views/rewards-claims.js';

/** Rewards (rewards admins), the claim rail: its status, its batches, finalizing a batch, freezing one. */
export const rewardsClaimsRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const actRewards = actIn(deps, 'rewards');
  const guarded = formRoute(app);
  const door = (request: FastifyRequest, reply: FastifyReply, lang: Lang | undefined) =>
    enter(deps, request, reply, lang ?? 'en', 'rewards');

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
    actRewards<Static<typeof Batch>>(
      request,
      reply,
      { ...request.body, back: claimsBack(request.body.lang) },
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
        actRewards<Static<typeof Batch>>(
          request,
          reply,
          { ...request.body, back: claimsBack(request.body.lang) },
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
