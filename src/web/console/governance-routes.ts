import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { EvaluationResponse, Proposal, StateResponse } from '../../governance/parameters/schemas.js';
import { sendPage } from '../site/render.js';
import { actIn, enter, formRoute, HIDDEN, must, refusal, seg, type ConsoleDeps } from './gate.js';
import { ConsoleQuery, IdParams, ProposalForm, RatifyForm, WithRequestForm } from './forms.js';
import { proofOf } from './proofs.js';
import { GovernancePage } from './views/governance.js';

declare module 'fastify' {
  interface Session {
    /** The last evaluation this person ran, shown once on the governance page (its signals and recommendations). */
    evaluation?: Pick<EvaluationResponse, 'evaluatedAt' | 'tripped' | 'mutatingApplied' | 'note' | 'recommendedControlPlaneActions'>;
  }
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

/** Governance: parameters, proposals through their states, evaluation of the health signals, emergency measures. */
export const governanceRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const actGovernance = actIn(deps, 'governance');
  const guarded = formRoute(app);

  app.get('/console/governance', { schema: { ...HIDDEN, querystring: ConsoleQuery } }, async (request, reply) => {
    const visit = enter(deps, request, reply, request.query.lang ?? 'en', 'governance');
    if (!visit) return reply;
    const state = must(await visit.client.read<StateResponse>('/v1/admin/governance/state', visit.actor));
    const evaluation = request.session.evaluation ?? null;
    if (evaluation) delete request.session.evaluation;
    return sendPage(reply, GovernancePage, { ...visit, state, evaluation });
  });

  app.post('/console/governance/proposals', { ...guarded, schema: { ...HIDDEN, body: ProposalForm } }, (request, reply) =>
    actGovernance<Proposal>(
      request,
      reply,
      request.body,
      async ({ client, actor }) => {
        const changes = parseChanges(request.body.changes);
        if (!changes) return refusal('CONSOLE_CHANGES_INVALID');
        return client.write('/v1/admin/governance/proposals', actor, {
          title: request.body.title,
          rationale: request.body.rationale,
          changes,
        });
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
        async ({ client, actor, reader }) => {
          const proof = proofOf(deps.mode, reader, request.body, `governance_ratify:${request.params.id}`);
          if (!proof) return refusal('CONSOLE_PROOF_REQUIRED');
          return client.write(`/v1/admin/governance/proposals/${seg(request.params.id)}/ratify`, actor, {
            ...proof,
            decision: request.body.decision,
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
        ({ client, actor }) =>
          client.write(`/v1/admin/governance/proposals/${seg(request.params.id)}/activate`, actor, {
            ...(request.body.controlPlaneRequestId ? { controlPlaneRequestId: request.body.controlPlaneRequestId } : {}),
          }),
        ({ proposal }) => ({ kind: 'done', message: 'console.governance.activated', params: { id: proposal.id } }),
      ),
  );

  app.post('/console/governance/evaluate', { ...guarded, schema: { ...HIDDEN, body: WithRequestForm } }, (request, reply) =>
    actGovernance<EvaluationResponse>(
      request,
      reply,
      request.body,
      async ({ client, actor }) => {
        const result = await client.write<EvaluationResponse>('/v1/admin/governance/evaluate', actor, {
          ...(request.body.controlPlaneRequestId ? { controlPlaneRequestId: request.body.controlPlaneRequestId } : {}),
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
      ({ client, actor }) =>
        client.write('/v1/admin/governance/emergency/clear', actor, {
          ...(request.body.reason ? { reason: request.body.reason } : {}),
          ...(request.body.controlPlaneRequestId ? { controlPlaneRequestId: request.body.controlPlaneRequestId } : {}),
        }),
      () => ({ kind: 'done', message: 'console.governance.cleared' }),
    ),
  );
};
