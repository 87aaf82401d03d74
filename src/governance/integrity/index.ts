import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
import { AnalysisResponse, AnalyzeBody } from './schemas.js';
import type { createIntegrityService } from './service.js';

/** Integrity (content admins): the cartel analysis of governance. */
export const integrityModule: FastifyPluginAsyncTypebox<{ integrity: ReturnType<typeof createIntegrityService> }> = async (
  app,
  { integrity },
) => {
  app.post(
    '/v1/admin/governance/cartel/analyze',
    {
      config: { auth: { kind: 'human-write', admin: 'content' } },
      schema: {
        operationId: 'analyzeCartels',
        tags: ['governance'],
        summary: 'Find groups of bots and readers that act for each other far beyond chance; store the finding',
        description:
          'Content admins only (CONTENT_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 CONTENT_ADMIN_REQUIRED otherwise). Finds groups of bots and readers that act for each other far beyond chance over the last windowDays (default 30): attestations, objections, revision votes, reward votes and flags are scored against a per-room chance model, split into communities and kept when their inside acts reach twice what chance predicts (docs/integrity.md). The finding is stored and audited; the latest analysis feeds the collusion signal, the consensus discount and the payouts held for review. It answers 200 because it is a report first; the same rows and parameters give the same answer.',
        body: AnalyzeBody,
        response: {
          200: answer(
            AnalysisResponse,
            'The analysis as stored: the method and its parameters, the window, counts of what was scored, and the flagged clusters (highest score first) with their evidence.',
          ),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request) => integrity.analyze(humanActor(request), request.body),
  );
};
