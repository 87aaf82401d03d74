import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import type { Lang } from '../../platform/i18n/index.js';
import {
  AppealBody,
  AssignBody,
  FreezeBody,
  OpenCaseBody,
  ResolveBody,
  type ReviewCase,
  type ReviewQueue,
} from '../../rewards/review/schemas.js';
import { href } from '../site/links.js';
import { sendPage } from '../site/render.js';
import { ConsoleQuery } from './forms.js';
import type { CallResult } from '../site/calls.js';
import { actIn, enter, formRoute, HIDDEN, must, refusal, type ConsoleDeps, type ConsoleVisit } from './gate.js';
import {
  AppealCaseForm,
  AssignCaseForm,
  EscalateCaseForm,
  FreezeForm,
  OpenCaseForm,
  ResolveCaseForm,
  RewardsIdParams,
} from './rewards-forms.js';
import { RewardsFreezesPage } from './views/rewards-freezes.js';
import { RewardsReviewPage, type HoldFinding } from './views/rewards-review.js';

type Case = Static<typeof ReviewCase>;
type Queue = Static<typeof ReviewQueue>;

/** The queue holds at most this many items (the API's largest page; it has no cursor). */
const QUEUE_LIMIT = 100;

/**
 * Rewards (rewards admins), review: the review queue and cases through their states, and recipient and story
 * freezes.
 */
export const rewardsReviewRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const { rewardReview: review, search, integrity } = deps.services;
  const actRewards = actIn(deps, 'rewards');
  const guarded = formRoute(app);
  const door = (request: FastifyRequest, reply: FastifyReply, lang: Lang | undefined) =>
    enter(deps, request, reply, lang ?? 'en', 'rewards');

  app.get('/console/rewards/review', { schema: { ...HIDDEN, querystring: ConsoleQuery } }, async (request, reply) => {
    const visit = door(request, reply, request.query.lang);
    if (!visit) return reply;
    const [queue, decided] = await Promise.all([
      visit.calls.read(visit.actor, () => review.queue(QUEUE_LIMIT), { admin: 'rewards' }),
      // closed cases leave the queue; the public search lists them (without target or reason), for an appeal
      visit.calls.readPublic(() => search.search({ queue: 'RESOLVED', limit: 100, lang: visit.lang })),
    ]);
    const items = must(queue);
    return sendPage(reply, RewardsReviewPage, {
      lang: visit.lang,
      areas: visit.areas,
      queue: items,
      holdFindings: await holdFindings(visit, items.items),
      decided: decided.ok ? (decided.body.reviewCases?.items ?? []) : [],
      me: visit.actor.actorId,
    });
  });

  /**
   * The collusion finding behind each payout held for review by the cartel hold, by payout id: the flagged cluster
   * of the latest analysis its beneficiary belongs to (a bot by bot id, a person by actor id or linked human), or
   * failing that its owner's. The hold asked the analysis that was latest when the payout was made; a payout whose
   * beneficiary a later analysis no longer flags gets no link.
   */
  async function holdFindings(visit: ConsoleVisit, items: Queue['items']): Promise<Map<string, HoldFinding>> {
    const held = items.flatMap((i) => (i.kind === 'HELD_PAYOUT' && i.payout?.statusReason === 'CARTEL_CLUSTER' ? [i.payout] : []));
    const found = new Map<string, HoldFinding>();
    if (held.length === 0) return found;
    const flagged = must(await visit.calls.read(visit.actor, () => integrity.flaggedMembers(), { admin: 'rewards' }));
    if (!flagged.analysisId) return found;
    for (const p of held) {
      const own = p.beneficiaryKind === 'BOT' ? flagged.bots.get(p.beneficiaryId) : flagged.people.get(p.beneficiaryId);
      const cluster = own ?? (p.linkedHumanId ? flagged.people.get(p.linkedHumanId) : undefined);
      if (cluster) found.set(p.id, { analysisId: flagged.analysisId, ...cluster });
    }
    return found;
  }

  const reviewBack = (lang: Lang | undefined) => href('/console/rewards/review', lang ?? 'en');
  const caseMoved = (message: string) => (item: Case) => ({ kind: 'done' as const, message, params: { id: item.id } });

  app.post('/console/rewards/review/cases', { ...guarded, schema: { ...HIDDEN, body: OpenCaseForm } }, (request, reply) =>
    actRewards<Case>(
      request,
      reply,
      { ...request.body, back: reviewBack(request.body.lang) },
      async ({ calls, actor }) => {
        const { targetType, targetId, reason, assignedToActorId } = request.body;
        const opened = await calls.write(actor, (person, body) => review.open(person, body), {
          admin: 'rewards',
          body: { schema: OpenCaseBody, value: { targetType, targetId, reason, ...(assignedToActorId ? { assignedToActorId } : {}) } },
        });
        // the service refuses a target that does not exist (the form's only field it checks against the records)
        const missing = !opened.ok && opened.failure.code === 'VALIDATION_FAILED';
        return missing ? refusal('CONSOLE_REVIEW_TARGET_NOT_FOUND', 400, { type: targetType, id: targetId }) : opened;
      },
      caseMoved('console.rewards.caseOpened'),
    ),
  );

  /** A move on a case the service does not know is said as such, with the id the form sent. */
  const onCase = async (id: string, result: Promise<CallResult<Case>>) => {
    const answered = await result;
    return !answered.ok && answered.status === 404 ? refusal('CONSOLE_REVIEW_CASE_NOT_FOUND', 404, { id }) : answered;
  };
  const note = (text: string | undefined) => (text?.trim() ? { note: text.trim() } : {});

  app.post(
    '/console/rewards/review/cases/:id/assign',
    { ...guarded, schema: { ...HIDDEN, params: RewardsIdParams, body: AssignCaseForm } },
    (request, reply) =>
      actRewards<Case>(
        request,
        reply,
        { ...request.body, back: reviewBack(request.body.lang) },
        ({ calls, actor }) =>
          onCase(
            request.params.id,
            calls.write(actor, (person, body) => review.assign(person, request.params.id, body), {
              admin: 'rewards',
              body: { schema: AssignBody, value: { assigneeActorId: request.body.assigneeActorId, ...note(request.body.note) } },
            }),
          ),
        caseMoved('console.rewards.caseAssigned'),
      ),
  );

  app.post(
    '/console/rewards/review/cases/:id/escalate',
    { ...guarded, schema: { ...HIDDEN, params: RewardsIdParams, body: EscalateCaseForm } },
    (request, reply) =>
      actRewards<Case>(
        request,
        reply,
        { ...request.body, back: reviewBack(request.body.lang) },
        ({ calls, actor }) =>
          onCase(
            request.params.id,
            calls.write(actor, (person, body) => review.assign(person, request.params.id, body), {
              admin: 'rewards',
              body: { schema: AssignBody, value: { escalate: true, ...note(request.body.note) } },
            }),
          ),
        caseMoved('console.rewards.caseEscalated'),
      ),
  );

  app.post(
    '/console/rewards/review/cases/:id/appeal',
    { ...guarded, schema: { ...HIDDEN, params: RewardsIdParams, body: AppealCaseForm } },
    (request, reply) =>
      actRewards<Case>(
        request,
        reply,
        { ...request.body, back: reviewBack(request.body.lang) },
        ({ calls, actor }) =>
          onCase(
            request.params.id,
            calls.write(actor, (person, body) => review.appeal(person, request.params.id, body), {
              admin: 'rewards',
              body: { schema: AppealBody, value: { note: request.body.note } },
            }),
          ),
        caseMoved('console.rewards.caseAppealed'),
      ),
  );

  app.post(
    '/console/rewards/review/cases/:id/resolve',
    { ...guarded, schema: { ...HIDDEN, params: RewardsIdParams, body: ResolveCaseForm } },
    (request, reply) =>
      actRewards<Case>(
        request,
        reply,
        { ...request.body, back: reviewBack(request.body.lang) },
        ({ calls, actor }) =>
          onCase(
            request.params.id,
            calls.write(actor, (person, body) => review.resolve(person, request.params.id, body), {
              admin: 'rewards',
              body: {
                schema: ResolveBody,
                value: {
                  outcome: request.body.outcome,
                  resolution: request.body.resolution,
                  releasePayouts: request.body.releasePayouts === '1',
                },
              },
            }),
          ),
        (item) => caseMoved(item.status === 'DISMISSED' ? 'console.rewards.caseDismissed' : 'console.rewards.caseResolved')(item),
      ),
  );

  // ---- freezes ------------------------------------------------------------------------------------------------

  app.get('/console/rewards/freezes', { schema: { ...HIDDEN, querystring: ConsoleQuery } }, async (request, reply) => {
    const visit = door(request, reply, request.query.lang);
    if (!visit) return reply;
    const queue = must(await visit.calls.read(visit.actor, () => review.queue(QUEUE_LIMIT), { admin: 'rewards' }));
    return sendPage(reply, RewardsFreezesPage, { lang: visit.lang, areas: visit.areas, queue });
  });

  app.post('/console/rewards/freezes', { ...guarded, schema: { ...HIDDEN, body: FreezeForm } }, (request, reply) =>
    actRewards<{ targetType: string; targetId: string; frozen: boolean; payoutsFrozen: number; payoutsToReview: number }>(
      request,
      reply,
      { ...request.body, back: href('/console/rewards/freezes', request.body.lang ?? 'en') },
      ({ calls, actor }) => {
        const { targetType, targetId, move, reason } = request.body;
        const act =
          targetType === 'RECIPIENT'
            ? move === 'freeze'
              ? review.freezeRecipient
              : review.unfreezeRecipient
            : move === 'freeze'
              ? review.freezeStory
              : review.unfreezeStory;
        return calls.write(actor, (person, body) => act(person, targetId, body.reason), {
          admin: 'rewards',
          body: { schema: FreezeBody, value: { reason } },
        });
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
};
