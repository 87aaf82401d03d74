import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { errors } from '../../platform/schemas.js';
import { StoryParams } from '../common/schemas.js';
import { CorrectionBody, CorrectionResponse, RetractionBody } from './schemas.js';
import type { createCorrectionsService } from './service.js';

/** Corrections and retractions by content admins; each emits a signed webhook (docs/webhooks.md). */
export const correctionsModule: FastifyPluginAsyncTypebox<{ service: ReturnType<typeof createCorrectionsService> }> = async (
  app,
  { service },
) => {
  const config = { auth: { kind: 'human-write', admin: 'content' } } as const;
  const response = { 202: CorrectionResponse, ...errors(400, 401, 403, 404, 409, 429, 503) };

  app.post(
    '/v1/admin/stories/:id/correction',
    {
      config,
      schema: {
        operationId: 'correctStory',
        tags: ['moderation'],
        summary: 'Correct a story: a new version with a correction note, CORRECTION on the ledger, webhook story.correction',
        params: StoryParams,
        body: CorrectionBody,
        response,
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.correct(humanActor(request), request.params.id, request.body, await request.governance())),
  );

  app.post(
    '/v1/admin/stories/:id/retraction',
    {
      config,
      schema: {
        operationId: 'retractStory',
        tags: ['moderation'],
        summary: 'Retract a story: RETRACTED, RETRACTION on the ledger, webhook story.retraction',
        params: StoryParams,
        body: RetractionBody,
        response,
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.retract(humanActor(request), request.params.id, request.body, await request.governance())),
  );
};
