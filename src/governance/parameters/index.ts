import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
import type { createEmergencyService } from './emergency-service.js';
import {
  ActivateBody,
  ActivationResponse,
  ClearBody,
  ClearResponse,
  EvaluateBody,
  EvaluationResponse,
  Proposal,
  ProposalBody,
  ProposalParams,
  RatifyBody,
  StateQuery,
  StateResponse,
} from './schemas.js';
import type { createGovernanceService } from './service.js';

/** Governance administration (content admins): parameters, proposals, health evaluation, emergency measures. */
export const governanceModule: FastifyPluginAsyncTypebox<{
  governance: ReturnType<typeof createGovernanceService>;
  emergency: ReturnType<typeof createEmergencyService>;
}> = async (app, { governance, emergency }) => {
  const tags = ['governance'];
  const admin = { kind: 'human-write', admin: 'content' } as const;

  app.get(
    '/v1/admin/governance/state',
    {
      config: { auth: { kind: 'human-read', admin: 'content' } },
      schema: {
        operationId: 'getGovernanceState',
        tags,
        summary: 'Every parameter (value, default, range, last proposal), the emergency state and open proposals',
        description:
          'A human signed read for content admins (403 CONTENT_ADMIN_REQUIRED otherwise). Lists every governance parameter with the value in force, its value without emergency measures, its default, its valid range and the proposal that last set it; the active emergency with its overlay and signals; the DRAFT and RATIFIED proposals (oldest first, at most 100); and how the control plane is set up. Reads count against the per-IP read limit.',
        querystring: StateQuery,
        response: {
          200: answer(
            StateResponse,
            'The governance state now: every parameter, the emergency, the open proposals and the control-plane settings.',
          ),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async () => governance.state(),
  );

  app.post(
    '/v1/admin/governance/proposals',
    {
      config: { auth: admin },
      schema: {
        operationId: 'createGovernanceProposal',
        tags,
        summary: 'Propose parameter changes (DRAFT)',
        description:
          'Content admins only (CONTENT_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 CONTENT_ADMIN_REQUIRED otherwise). Proposes changes of one or more parameters as a DRAFT; an unknown parameter or a value outside its range is 400 VALIDATION_FAILED with one details entry per change (path /changes/<parameter>). Proposals are never edited: a different change is a new proposal, which a verified human then ratifies and a content admin activates. The answer is the proposal as stored, with its id.',
        body: ProposalBody,
        response: {
          202: answer(Proposal, 'Accepted: the proposal as stored, status DRAFT, with its id.'),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await governance.propose(humanActor(request), request.body)),
  );

  app.post(
    '/v1/admin/governance/proposals/:id/ratify',
    {
      config: { auth: admin },
      schema: {
        operationId: 'ratifyGovernanceProposal',
        tags,
        summary: 'Ratify (or reject) a DRAFT proposal: verified human, proof with action governance_ratify:<id>',
        description:
          'Content admins only (CONTENT_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 CONTENT_ADMIN_REQUIRED otherwise). The ratifier must also be a verified human (verified=true with a bound linkedHumanId, 403 VERIFIED_ACTOR_REQUIRED) and the body carries a human proof whose action is governance_ratify:<proposalId>; its nullifier is spent once (409 NULLIFIER_REUSED), in the transaction of the decision. Only a DRAFT moves (to RATIFIED, or REJECTED with decision REJECT); any other state is 409 GOVERNANCE_TRANSITION_INVALID. The answer is the proposal with who decided and when.',
        params: ProposalParams,
        body: RatifyBody,
        response: {
          202: answer(Proposal, 'Accepted: the proposal after the decision (RATIFIED or REJECTED), with decidedBy and decidedAt.'),
          ...errors(400, 401, 403, 404, 409, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await governance.ratify(humanActor(request), request.params.id, request.body)),
  );

  app.post(
    '/v1/admin/governance/proposals/:id/activate',
    {
      config: { auth: admin },
      schema: {
        operationId: 'activateGovernanceProposal',
        tags,
        summary: 'Activate a RATIFIED proposal: all its changes in one transaction (explicit control plane: an executed request)',
        description:
          'Content admins only (CONTENT_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 CONTENT_ADMIN_REQUIRED otherwise). Writes every change of a RATIFIED proposal in one transaction, under the governance lock, and supersedes the older open proposals that change one of the same parameters. With FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED=1 the body must name an EXECUTED governance.activate request for exactly these changes (409 CONTROL_PLANE_EXECUTION_REQUIRED and the other control-plane 409s); it is consumed with the change. The answer is the ACTIVE proposal, each parameter applied with its old and new value, and the superseded proposals.',
        params: ProposalParams,
        body: ActivateBody,
        response: {
          202: answer(
            ActivationResponse,
            'Accepted: the proposal, now ACTIVE, the values applied (from, to), the proposals it superseded and the control-plane request it consumed.',
          ),
          ...errors(400, 401, 403, 404, 409, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await governance.activate(humanActor(request), request.params.id, request.body)),
  );

  app.post(
    '/v1/admin/governance/evaluate',
    {
      config: { auth: admin },
      schema: {
        operationId: 'evaluateGovernance',
        tags,
        summary:
          'Measure the health signals; apply emergency measures (explicit control plane off) or recommend control-plane requests (on)',
        description:
          'Content admins only (CONTENT_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 CONTENT_ADMIN_REQUIRED otherwise). Measures the health signals at this instant (flag surge, objection spike, collusion from the latest cartel analysis; payout anomalies are not measured yet). With the explicit control plane off, a tripped signal and no active emergency apply the emergency measures (CLEAR, graduation and revision-accept thresholds multiplied by emergency.thresholdMultiplier); with it on, nothing is applied and the answer recommends the control-plane request to file, and an EXECUTED request named in controlPlaneRequestId applies them. It answers 200 because it is a report first: `mutatingApplied` says whether it changed anything.',
        body: EvaluateBody,
        response: {
          200: answer(
            EvaluationResponse,
            'The evaluation: every signal with its numbers and thresholds, what tripped, what was applied (mutatingApplied) or is recommended, and the emergency state after it.',
          ),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request) => emergency.evaluate(humanActor(request), request.body),
  );

  app.post(
    '/v1/admin/governance/emergency/clear',
    {
      config: { auth: admin },
      schema: {
        operationId: 'clearEmergency',
        tags,
        summary: 'Clear the active emergency (explicit control plane: an executed request)',
        description:
          'Content admins only (CONTENT_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 CONTENT_ADMIN_REQUIRED otherwise). Ends the active emergency: its overlay stops applying at once and the record keeps who cleared it, when and why; no active emergency is 409 GOVERNANCE_NO_EMERGENCY. With the explicit control plane on, the body must name an EXECUTED governance.emergency.clear request for this emergency, consumed with the change. The answer is the cleared emergency and the emergency state after it.',
        body: ClearBody,
        response: {
          202: answer(
            ClearResponse,
            'Accepted: the emergency as cleared (overlay, activation and clearing times, who and why) and the emergency state now (inactive).',
          ),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await emergency.clear(humanActor(request), request.body)),
  );
};
