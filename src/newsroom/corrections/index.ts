import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
import { StoryParams } from '../common/schemas.js';
import { CorrectionBody, CorrectionResponse, RetractionBody } from './schemas.js';
import type { createCorrectionsService } from './service.js';

/** Corrections and retractions by content admins; each emits a signed webhook. */
export const correctionsModule: FastifyPluginAsyncTypebox<{ service: ReturnType<typeof createCorrectionsService> }> = async (
  app,
  { service },
) => {
  const config = { auth: { kind: 'human-write', admin: 'content' } } as const;
  const response = (done: string) => ({ 202: answer(CorrectionResponse, done), ...errors(400, 401, 403, 404, 409, 429, 503) });
  const who =
    'A human signed write. Content admins only (CONTENT_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 CONTENT_ADMIN_REQUIRED otherwise), signing as a verified human (403 VERIFIED_ACTOR_REQUIRED). The story must be published and readable by the public (409 STORY_NOT_PUBLISHED), not retracted (409 STORY_RETRACTED) and not under a legal hold (409 LEGAL_HOLD_ACTIVE).';

  app.post(
    '/v1/admin/stories/:id/correction',
    {
      config,
      schema: {
        operationId: 'correctStory',
        tags: ['moderation'],
        summary: 'Correct a story: a new version with a correction note, CORRECTION on the ledger, webhook story.correction',
        params: StoryParams,
        description: `${who} The changes over the current packet make a new version (the same rules as a revision: 400 when nothing changes, 409 REVISION_RECREATES_VERSION), open revision proposals become STALE, CORRECTION goes on the ledger with the note, and the webhook story.correction is queued, all in one transaction. The answer is the correction.`,
        body: CorrectionBody,
        response: response(
          'Accepted: the correction as recorded, with the new version and packet hash and the ledger and webhook events it wrote.',
        ),
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
        description: `${who} The story becomes RETRACTED for good (state UNDER_REVIEW, off the feeds but readable by id and findable by search), RETRACTION goes on the ledger with the reason, and the webhook story.retraction is queued, all in one transaction. The answer is the retraction.`,
        body: RetractionBody,
        response: response(
          'Accepted: the retraction as recorded, with the story version it applies to and the ledger and webhook events it wrote.',
        ),
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.retract(humanActor(request), request.params.id, request.body, await request.governance())),
  );
};
