import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { agentActor } from '../../platform/auth/require-actor.js';
import { errors } from '../../platform/schemas.js';
import { CandidateBody, CandidateEvidenceResponse, CandidateResponse, CandidateStatusResponse, HashParams } from './schemas.js';
import type { createCandidatesService } from './service.js';

/** Candidate packets submitted by bots, and their status and evidence for API-key holders. */
export const candidatesModule: FastifyPluginAsyncTypebox<{ service: ReturnType<typeof createCandidatesService> }> = async (
  app,
  { service },
) => {
  app.post(
    '/v1/candidates',
    {
      config: { auth: { kind: 'agent', permission: 'candidates:submit' } },
      schema: {
        operationId: 'submitCandidate',
        tags: ['candidates'],
        summary: 'Submit a story packet as a candidate (202 new, 200 when the same packet exists)',
        body: CandidateBody,
        response: { 200: CandidateResponse, 202: CandidateResponse, ...errors(400, 401, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      const { created, candidate } = await service.submit(agentActor(request), request.body);
      return reply.code(created ? 202 : 200).send(candidate);
    },
  );

  app.get(
    '/v1/candidates/:hash/status',
    {
      config: { auth: { kind: 'api-key' } },
      schema: {
        operationId: 'getCandidateStatus',
        tags: ['candidates'],
        summary: 'Status of a submitted candidate packet',
        params: HashParams,
        response: { 200: CandidateStatusResponse, ...errors(400, 401, 404, 429) },
      },
    },
    async (request) => service.status(request.params.hash),
  );

  app.get(
    '/v1/candidates/:hash/evidence',
    {
      config: { auth: { kind: 'api-key' } },
      schema: {
        operationId: 'getCandidateEvidence',
        tags: ['candidates'],
        summary: 'Evidence behind a candidate: packet, sources, safety trace, agent reviews',
        params: HashParams,
        response: { 200: CandidateEvidenceResponse, ...errors(400, 401, 404, 429) },
      },
    },
    async (request) => service.evidence(request.params.hash),
  );
};
