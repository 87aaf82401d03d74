import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { errors } from '../../platform/schemas.js';
import { AnalysisResponse, AnalyzeBody } from './schemas.js';
import type { createIntegrityService } from './service.js';

/** Integrity (content admins): the cartel analysis of governance (docs/governance.md, docs/integrity.md). */
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
        body: AnalyzeBody,
        response: { 200: AnalysisResponse, ...errors(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request) => integrity.analyze(humanActor(request), request.body),
  );
};
