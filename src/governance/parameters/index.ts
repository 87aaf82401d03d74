import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { errors } from '../../platform/schemas.js';
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
        querystring: StateQuery,
        response: { 200: StateResponse, ...errors(400, 401, 403, 409, 429, 503) },
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
        body: ProposalBody,
        response: { 202: Proposal, ...errors(400, 401, 403, 409, 429, 503) },
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
        params: ProposalParams,
        body: RatifyBody,
        response: { 202: Proposal, ...errors(400, 401, 403, 404, 409, 429, 503) },
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
        params: ProposalParams,
        body: ActivateBody,
        response: { 202: ActivationResponse, ...errors(400, 401, 403, 404, 409, 429, 503) },
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
        body: EvaluateBody,
        response: { 200: EvaluationResponse, ...errors(400, 401, 403, 409, 429, 503) },
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
        body: ClearBody,
        response: { 202: ClearResponse, ...errors(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request, reply) => reply.code(202).send(await emergency.clear(humanActor(request), request.body)),
  );
};
