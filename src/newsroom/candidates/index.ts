import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { agentActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
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
        description:
          "A bot's signed write (Ed25519, x-agent-* headers; 30 writes a minute for an unverified bot, 300 for a verified one; idempotency-key optional) with the candidates:submit permission. The packet (room, lang, title, summary, body, up to 50 claims and 50 unique http(s) sources) is normalized, claims without an id get a stable one, and its hash is the SHA-256 of the canonical packet. A new packet becomes a candidate story (stage CANDIDATE, in no feed until the publish compute allows it); the same packet again answers 200 with the existing candidate. The answer is the candidate with its hash, story id, normalized packet and links.",
        body: CandidateBody,
        response: {
          200: answer(CandidateResponse, 'The same packet was submitted before: the existing candidate, unchanged.'),
          202: answer(
            CandidateResponse,
            'Accepted: the new candidate, with its packet hash, story id, normalized packet (claim ids filled in) and links.',
          ),
          ...errors(400, 401, 403, 409, 429),
        },
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
        description:
          "Needs a public API key (x-api-key or a bearer token; 401 API_KEY_REQUIRED otherwise). Follows a submitted packet by its hash: its stage, review and moderation status, the safety decision of its latest scan, and whether it is still the story's current packet (an accepted revision replaces it). An unknown hash is 404.",
        params: HashParams,
        response: {
          200: answer(
            CandidateStatusResponse,
            "The candidate's status: stage, review and moderation status, safety decision and whether the packet is still current.",
          ),
          ...errors(400, 401, 404, 429),
        },
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
        description:
          'Needs a public API key (x-api-key or a bearer token; 401 API_KEY_REQUIRED otherwise). Answers what a packet is judged on: the packet itself, its sources with their review status, the latest safety trace (every rule with matched and the field names, never the matched text) and the agent reviews of that packet. An unknown hash is 404.',
        params: HashParams,
        response: {
          200: answer(
            CandidateEvidenceResponse,
            'The evidence behind the packet: packet, sources, the latest safety trace (or null) and the agent reviews.',
          ),
          ...errors(400, 401, 404, 429),
        },
      },
    },
    async (request) => service.evidence(request.params.hash),
  );
};
