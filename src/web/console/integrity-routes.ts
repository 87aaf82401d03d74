import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AnalyzeBody, type AnalysisResponse } from '../../governance/integrity/schemas.js';
import { form } from '../site/form-schemas.js';
import { sendPage } from '../site/render.js';
import { ConsoleQuery } from './forms.js';
import { consoleBack, enter, formRoute, HIDDEN, must, type ConsoleDeps, type ConsoleVisit } from './gate.js';
import { IntegrityPage } from './views/integrity.js';

const AnalyzeForm = form({
  windowDays: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  minClusterSize: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
});

/** The discount parameter and, for a rewards admin, the payouts held for review, per flagged member. */
async function effects(deps: ConsoleDeps, visit: ConsoleVisit, analysis: AnalysisResponse | null) {
  const { governance, rewardReview } = deps.services;
  const state = must(await visit.calls.read(visit.actor, () => governance.state(), { admin: 'content' }));
  const discount = state.parameters.find((p) => p.name === 'integrity.clusterAttestationDiscount')?.value ?? 0;
  const collusion = state.emergency.signals.find((s) => s.name === 'collusion') ?? null;
  let held: Record<string, number> | null = null;
  if (analysis && visit.roles.rewardsAdmin) {
    const queue = await visit.calls.read(visit.actor, () => rewardReview.queue(100), { admin: 'rewards' });
    if (queue.ok) {
      held = {};
      for (const item of queue.body.items)
        if (item.kind === 'HELD_PAYOUT' && item.payout?.botId) held[item.payout.botId] = (held[item.payout.botId] ?? 0) + 1;
    }
  }
  return { discount, collusion, held };
}

/**
 * Integrity: run the cartel analysis and look at it as a picture (the co-action graph of the flagged clusters,
 * each member's evidence a click away) with what the finding changes: the consensus discount and the payouts
 * held for review.
 */
export const integrityRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const guarded = formRoute(app);

  app.get('/console/integrity', { schema: { ...HIDDEN, querystring: ConsoleQuery } }, async (request, reply) => {
    const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'integrity');
    if (!visit) return reply;
    return sendPage(reply, IntegrityPage, { lang: visit.lang, areas: visit.areas, analysis: null, ...(await effects(deps, visit, null)) });
  });

  // the analysis is the answer of this form (a report, not a change to come back from): shown at once
  app.post('/console/integrity/analyze', { ...guarded, schema: { ...HIDDEN, body: AnalyzeForm } }, async (request, reply) => {
    const lang = request.body.lang ?? 'en';
    const visit = enter(deps, request, reply, lang, 'integrity');
    if (!visit) return reply;
    const { windowDays, minClusterSize } = request.body;
    const { integrity } = deps.services;
    const result = await visit.calls.write(visit.actor, (actor, body) => integrity.analyze(actor, body), {
      admin: 'content',
      body: {
        schema: AnalyzeBody,
        value: {
          ...(windowDays ? { windowDays: Number(windowDays) } : {}),
          ...(minClusterSize ? { minClusterSize: Number(minClusterSize) } : {}),
        },
      },
    });
    if (!result.ok) {
      request.session.flash = { kind: 'refused', message: result.failure.code };
      return reply.redirect(consoleBack(request.body.back, lang), 303);
    }
    return sendPage(reply, IntegrityPage, {
      lang,
      areas: visit.areas,
      analysis: result.body,
      ...(await effects(deps, visit, result.body)),
    });
  });
};
