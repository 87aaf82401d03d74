import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { AnalyzeBody, DismissFindingBody, type AnalysisResponse } from '../../governance/integrity/schemas.js';
import type { FindingAction } from '../../governance/integrity/service.js';
import { appError, notFound } from '../../platform/errors.js';
import { LangParam, type Lang } from '../../platform/i18n/index.js';
import { FreezeBody, OpenCaseBody } from '../../rewards/review/schemas.js';
import { form } from '../site/form-schemas.js';
import { finish, flashOf } from '../site/form-replies.js';
import { href } from '../site/links.js';
import { sendPage } from '../site/render.js';
import { ConsoleQuery } from './forms.js';
import { consoleBack, enter, formRoute, HIDDEN, must, type ConsoleDeps, type ConsoleVisit } from './gate.js';
import { FindingPage, FreezeConfirmPage, IntegrityPage, type MemberNames } from './views/integrity.js';

const AnalyzeForm = form({
  windowDays: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  minClusterSize: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
});
const Reason = Type.String({ minLength: 1, maxLength: 1000 });
/** A member of a finding as forms and addresses name it: `bot:<id>` or `actor:<id>`. */
const MemberKey = Type.String({ maxLength: 220, pattern: '^(bot|actor):[A-Za-z0-9_.:-]{1,200}$' });
const Target = Type.String({ maxLength: 220, pattern: '^(STORY|RECIPIENT):[A-Za-z0-9_.:-]{1,200}$' });
const DismissForm = form({ reason: Reason });
const CaseForm = form({ target: Target, reason: Reason });
const FreezeForm = form({ member: MemberKey, reason: Reason });
const FindingParams = Type.Object({
  analysisId: Type.String({ maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' }),
  clusterId: Type.String({ maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' }),
});
const FreezeQuery = Type.Object({ lang: LangParam, member: MemberKey }, { additionalProperties: false });

const memberOf = (key: string) => {
  const at = key.indexOf(':');
  return { kind: key.slice(0, at) as 'bot' | 'actor', id: key.slice(at + 1) };
};

export const findingPath = (analysisId: string, clusterId: string) =>
  `/console/integrity/findings/${encodeURIComponent(analysisId)}/${encodeURIComponent(clusterId)}`;

/** The names of the members of these clusters: bots by their name, readers by their display name (absent: none chosen). */
async function namesOf(deps: ConsoleDeps, clusters: AnalysisResponse['clusters']): Promise<MemberNames> {
  const members = clusters.flatMap((c) => c.evidence.members);
  const [bots, actors] = await Promise.all([
    deps.services.botNames(members.filter((m) => m.kind === 'bot').map((m) => m.id)),
    deps.services.names.namesOf(members.filter((m) => m.kind === 'actor').map((m) => m.id)),
  ]);
  return { bots, actors };
}

/** The discount parameter and the collusion signal: what the finding changes. */
async function effects(deps: ConsoleDeps, visit: ConsoleVisit) {
  const state = must(await visit.calls.read(visit.actor, () => deps.services.governance.state(), { admin: 'content' }));
  const discount = state.parameters.find((p) => p.name === 'integrity.clusterAttestationDiscount')?.value ?? 0;
  const collusion = state.emergency.signals.find((s) => s.name === 'collusion') ?? null;
  return { discount, collusion };
}

/**
 * Integrity: run the cartel analysis and look at the latest as a picture (the co-action graph of the flagged
 * clusters, members by name, each finding's one number explained), then act on a finding from its own page:
 * open a review case for it, freeze a member's payouts, or dismiss it with a reason. Every form posts, is
 * audited by the services it calls, and comes back to a page with its own address.
 */
export const integrityRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const guarded = formRoute(app);
  const { integrity, rewardReview } = deps.services;
  const door = (request: FastifyRequest, reply: FastifyReply, lang: Lang | undefined) =>
    enter(deps, request, reply, lang ?? 'en', 'integrity');

  app.get('/console/integrity', { schema: { ...HIDDEN, querystring: ConsoleQuery } }, async (request, reply) => {
    const visit = door(request, reply, request.query.lang);
    if (!visit) return reply;
    const latest = must(await visit.calls.read(visit.actor, () => integrity.latest(), { admin: 'content' }));
    const analysis = latest?.analysis ?? null;
    return sendPage(reply, IntegrityPage, {
      lang: visit.lang,
      areas: visit.areas,
      analysis,
      actions: latest?.actions ?? [],
      names: analysis ? await namesOf(deps, analysis.clusters) : { bots: new Map(), actors: new Map() },
      ...(await effects(deps, visit)),
    });
  });

  // the analysis is stored: the page shows the latest, so this form comes back to it (post, redirect, get)
  app.post('/console/integrity/analyze', { ...guarded, schema: { ...HIDDEN, body: AnalyzeForm } }, async (request, reply) => {
    const lang = request.body.lang ?? 'en';
    const visit = door(request, reply, lang);
    if (!visit) return reply;
    const { windowDays, minClusterSize } = request.body;
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
    const flash = flashOf(result, (body) => ({
      kind: 'done',
      message: 'console.integrity.analyzed',
      params: { clusters: body.clusters.length },
    }));
    return finish(request, reply, flash, result.ok ? href('/console/integrity', lang) : consoleBack(request.body.back, lang), lang);
  });

  /** The finding and what the page shows around it, or the 404 page. */
  async function findingView(visit: ConsoleVisit, params: { analysisId: string; clusterId: string }) {
    const found = must(
      await visit.calls.read(visit.actor, () => integrity.finding(params.analysisId, params.clusterId), { admin: 'content' }),
    );
    return { found, names: await namesOf(deps, [found.cluster]) };
  }

  app.get(
    '/console/integrity/findings/:analysisId/:clusterId',
    { schema: { ...HIDDEN, params: FindingParams, querystring: ConsoleQuery } },
    async (request, reply) => {
      const visit = door(request, reply, request.query.lang);
      if (!visit) return reply;
      const { found, names } = await findingView(visit, request.params);
      return sendPage(reply, FindingPage, {
        lang: visit.lang,
        areas: visit.areas,
        analysis: found.analysis,
        cluster: found.cluster,
        index: found.index,
        actions: found.actions,
        names,
        rewardsAdmin: visit.roles.rewardsAdmin,
      });
    },
  );

  // the confirmation names what freezing a member's payouts does before the form that does it
  app.get(
    '/console/integrity/findings/:analysisId/:clusterId/freeze',
    { schema: { ...HIDDEN, params: FindingParams, querystring: FreezeQuery } },
    async (request, reply) => {
      const visit = door(request, reply, request.query.lang);
      if (!visit) return reply;
      const { found, names } = await findingView(visit, request.params);
      const member = memberOf(request.query.member);
      const evidence = found.cluster.evidence.members.find((m) => m.id === member.id && m.kind === member.kind);
      if (!evidence) return must<never>({ ok: false, status: 404, failure: { code: 'NOT_FOUND' } });
      const recipient = must(await visit.calls.read(visit.actor, () => rewardReview.recipientOf(member), { admin: 'rewards' }));
      return sendPage(reply, FreezeConfirmPage, {
        lang: visit.lang,
        areas: visit.areas,
        analysisId: found.analysis.id,
        cluster: found.cluster,
        index: found.index,
        member,
        names,
        recipient,
      });
    },
  );

  const back = (params: { analysisId: string; clusterId: string }, lang: Lang) =>
    href(findingPath(params.analysisId, params.clusterId), lang);
  const actionDone = (message: string) => (action: FindingAction) => ({
    kind: 'done' as const,
    message,
    params: { reference: action.reference ?? '' },
  });

  app.post(
    '/console/integrity/findings/:analysisId/:clusterId/dismiss',
    { ...guarded, schema: { ...HIDDEN, params: FindingParams, body: DismissForm } },
    async (request, reply) => {
      const lang = request.body.lang ?? 'en';
      const visit = door(request, reply, lang);
      if (!visit) return reply;
      const result = await visit.calls.write(visit.actor, (actor, body) => integrity.dismiss(actor, request.params, body.reason), {
        admin: 'content',
        body: { schema: DismissFindingBody, value: { reason: request.body.reason } },
      });
      return finish(request, reply, flashOf(result, actionDone('console.integrity.dismissed')), back(request.params, lang), lang);
    },
  );

  app.post(
    '/console/integrity/findings/:analysisId/:clusterId/case',
    { ...guarded, schema: { ...HIDDEN, params: FindingParams, body: CaseForm } },
    async (request, reply) => {
      const lang = request.body.lang ?? 'en';
      const visit = door(request, reply, lang);
      if (!visit) return reply;
      const { analysisId, clusterId } = request.params;
      const at = request.body.target.indexOf(':');
      const targetType = request.body.target.slice(0, at) as 'STORY' | 'RECIPIENT';
      const targetId = request.body.target.slice(at + 1);
      const reason = `Cartel finding ${clusterId} of analysis ${analysisId}: ${request.body.reason}`;
      const result = await visit.calls.write(
        visit.actor,
        async (actor) => {
          // the finding must exist before a case is opened for it
          await integrity.finding(analysisId, clusterId);
          const opened = await rewardReview.open(actor, { targetType, targetId, reason });
          return integrity.linkAction(actor, request.params, 'CASE_OPENED', { reason: request.body.reason, reference: opened.id });
        },
        { admin: 'rewards', body: { schema: OpenCaseBody, value: { targetType, targetId, reason } } },
      );
      return finish(request, reply, flashOf(result, actionDone('console.integrity.caseOpened')), back(request.params, lang), lang);
    },
  );

  app.post(
    '/console/integrity/findings/:analysisId/:clusterId/freeze',
    { ...guarded, schema: { ...HIDDEN, params: FindingParams, body: FreezeForm } },
    async (request, reply) => {
      const lang = request.body.lang ?? 'en';
      const visit = door(request, reply, lang);
      if (!visit) return reply;
      const { analysisId, clusterId } = request.params;
      const member = memberOf(request.body.member);
      const reason = `Cartel finding ${clusterId} of analysis ${analysisId}: ${request.body.reason}`;
      const result = await visit.calls.write(
        visit.actor,
        async (actor) => {
          const found = await integrity.finding(analysisId, clusterId);
          if (!found.cluster.evidence.members.some((m) => m.id === member.id && m.kind === member.kind))
            throw notFound('member of this finding');
          const recipient = await rewardReview.recipientOf(member);
          if (!recipient) throw appError('NO_REWARDS_RECIPIENT');
          const frozen = await rewardReview.freezeRecipient(actor, recipient.recipientId, reason);
          return integrity.linkAction(actor, request.params, 'FROZEN', {
            reason: request.body.reason,
            reference: frozen.targetId,
            member,
          });
        },
        { admin: 'rewards', body: { schema: FreezeBody, value: { reason } } },
      );
      return finish(request, reply, flashOf(result, actionDone('console.integrity.frozen')), back(request.params, lang), lang);
    },
  );
};
