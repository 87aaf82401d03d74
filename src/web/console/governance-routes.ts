import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AllowlistSubject } from '../../platform/auth/admin-policy.js';
import {
  ActivateBody,
  ClearBody,
  EvaluateBody,
  ProposalBody,
  RatifyBody,
  type EvaluationResponse,
  type Proposal,
  type Signal,
} from '../../governance/parameters/schemas.js';
import { isParameterName, PARAMETER_NAMES, type ParameterName } from '../../governance/parameters/parameters.js';
import type { CallResult } from '../site/calls.js';
import { sendPage } from '../site/render.js';
import { actIn, enter, formRoute, HIDDEN, must, refusal, type ConsoleDeps } from './gate.js';
import { ConsoleQuery, IdParams, ProposalForm, RatifyForm, WithRequestForm } from './forms.js';
import { proofOf } from './proofs.js';
import { GovernancePage } from './views/governance.js';

declare module 'fastify' {
  interface Session {
    /** The last evaluation this person ran, shown once on the governance page (its signals and recommendations). */
    evaluation?: Pick<EvaluationResponse, 'evaluatedAt' | 'tripped' | 'mutatingApplied' | 'note' | 'recommendedControlPlaneActions'>;
    /** A refused proposal as it was typed, put back into the form once. */
    proposalDraft?: ProposalDraft;
  }
}

/** What the new-proposal form holds. */
export interface ProposalDraft {
  title: string;
  rationale: string;
  changes: string;
}

/** The edit distance of two names (insertions, deletions and substitutions of one character each). */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The known parameter closest to `name` (a typo, another word for the same thing): what the refusal suggests. */
export function closestParameter(name: string): ParameterName {
  let best = PARAMETER_NAMES[0]!;
  for (const known of PARAMETER_NAMES) if (distance(name, known) < distance(name, best)) best = known;
  return best;
}

/** `name = value` lines as the changes of a proposal (numbers only; a bad line is the console's refusal). */
export function parseChanges(text: string): Record<string, number> | null {
  const changes: Record<string, number> = {};
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const match = /^\s*([A-Za-z0-9_.-]{1,100})\s*[=:]\s*(-?\d+(?:\.\d+)?)\s*$/.exec(line);
    if (!match) return null;
    changes[match[1]!] = Number(match[2]);
  }
  return Object.keys(changes).length ? changes : null;
}

/** The governance health signals measured now (the emergency service's own measure, nothing applied). */
export type HealthSignals = (who: AllowlistSubject) => Promise<Signal[]>;

/** Governance: parameters, proposals through their states, evaluation of the health signals, emergency measures. */
export const governanceRoutes: FastifyPluginAsyncTypebox<ConsoleDeps & { healthSignals: HealthSignals }> = async (app, deps) => {
  const { governance, emergency } = deps.services;
  const actGovernance = actIn(deps, 'governance');
  const guarded = formRoute(app);

  app.get('/console/governance', { schema: { ...HIDDEN, querystring: ConsoleQuery } }, async (request, reply) => {
    const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'governance');
    if (!visit) return reply;
    // the state's emergency holds the signals an emergency started with (none without one): the table shows them now
    const [read, signals] = await Promise.all([
      visit.calls.read(visit.actor, () => governance.state(), { admin: 'content' }),
      deps.healthSignals(visit.actor),
    ]);
    const state = must(read);
    const evaluation = request.session.evaluation ?? null;
    if (evaluation) delete request.session.evaluation;
    const draft = request.session.proposalDraft ?? null;
    if (draft) delete request.session.proposalDraft;
    return sendPage(reply, GovernancePage, { ...visit, state, signals, evaluation, draft });
  });

  app.post('/console/governance/proposals', { ...guarded, schema: { ...HIDDEN, body: ProposalForm } }, (request, reply) =>
    actGovernance<Proposal>(
      request,
      reply,
      request.body,
      async ({ calls, actor }) => {
        const { title, rationale } = request.body;
        const draft = { title, rationale, changes: request.body.changes };
        const changes = parseChanges(draft.changes);
        const unknown = changes ? Object.keys(changes).find((name) => !isParameterName(name)) : undefined;
        const result: CallResult<Proposal> = !changes
          ? refusal('CONSOLE_CHANGES_INVALID')
          : unknown !== undefined
            ? refusal('CONSOLE_PARAMETER_UNKNOWN', 400, { name: unknown, closest: closestParameter(unknown) })
            : await calls.write(actor, (person, body) => governance.propose(person, body), {
                admin: 'content',
                body: { schema: ProposalBody, value: { title, rationale, changes } },
              });
        // a refused proposal comes back into the form as it was typed, to be corrected rather than typed again
        if (!result.ok) request.session.proposalDraft = draft;
        return result;
      },
      (proposal) => ({ kind: 'done', message: 'console.governance.proposed', params: { id: proposal.id } }),
    ),
  );

  app.post(
    '/console/governance/proposals/:id/ratify',
    { ...guarded, schema: { ...HIDDEN, params: IdParams, body: RatifyForm } },
    (request, reply) =>
      actGovernance<Proposal>(
        request,
        reply,
        request.body,
        async ({ calls, actor, reader }) => {
          const proof = proofOf(deps.mode, reader, request.body, `governance_ratify:${request.params.id}`);
          if (!proof) return refusal('CONSOLE_PROOF_REQUIRED');
          return calls.write(actor, (person, body) => governance.ratify(person, request.params.id, body), {
            admin: 'content',
            body: { schema: RatifyBody, value: { ...proof, decision: request.body.decision } },
          });
        },
        (proposal) => ({
          kind: 'done',
          message: `console.governance.${proposal.status === 'REJECTED' ? 'rejected' : 'ratified'}`,
          params: { id: proposal.id },
        }),
      ),
  );

  app.post(
    '/console/governance/proposals/:id/activate',
    { ...guarded, schema: { ...HIDDEN, params: IdParams, body: WithRequestForm } },
    (request, reply) =>
      actGovernance<{ proposal: Proposal }>(
        request,
        reply,
        request.body,
        ({ calls, actor }) =>
          calls.write(actor, (person, body) => governance.activate(person, request.params.id, body), {
            admin: 'content',
            body: {
              schema: ActivateBody,
              value: request.body.controlPlaneRequestId ? { controlPlaneRequestId: request.body.controlPlaneRequestId } : {},
            },
          }),
        ({ proposal }) => ({ kind: 'done', message: 'console.governance.activated', params: { id: proposal.id } }),
      ),
  );

  app.post('/console/governance/evaluate', { ...guarded, schema: { ...HIDDEN, body: WithRequestForm } }, (request, reply) =>
    actGovernance<EvaluationResponse>(
      request,
      reply,
      request.body,
      async ({ calls, actor }) => {
        const result = await calls.write(actor, (person, body) => emergency.evaluate(person, body), {
          admin: 'content',
          body: {
            schema: EvaluateBody,
            value: request.body.controlPlaneRequestId ? { controlPlaneRequestId: request.body.controlPlaneRequestId } : {},
          },
        });
        if (result.ok) {
          const { evaluatedAt, tripped, mutatingApplied, note, recommendedControlPlaneActions } = result.body;
          request.session.evaluation = { evaluatedAt, tripped, mutatingApplied, recommendedControlPlaneActions, ...(note ? { note } : {}) };
        }
        return result;
      },
      (evaluation) => ({
        kind: 'done',
        message: evaluation.mutatingApplied ? 'console.governance.emergencyApplied' : 'console.governance.evaluated',
        params: { count: evaluation.tripped.length },
      }),
    ),
  );

  app.post('/console/governance/emergency/clear', { ...guarded, schema: { ...HIDDEN, body: WithRequestForm } }, (request, reply) =>
    actGovernance(
      request,
      reply,
      request.body,
      ({ calls, actor }) =>
        calls.write(actor, (person, body) => emergency.clear(person, body), {
          admin: 'content',
          body: {
            schema: ClearBody,
            value: {
              ...(request.body.reason ? { reason: request.body.reason } : {}),
              ...(request.body.controlPlaneRequestId ? { controlPlaneRequestId: request.body.controlPlaneRequestId } : {}),
            },
          },
        }),
      () => ({ kind: 'done', message: 'console.governance.cleared' }),
    ),
  );
};
