import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
import { StoryParams } from '../common/schemas.js';
import { PageQuery } from '../stories/evidence-schemas.js';
import { FlagBody, FlagResponse, FlagsResponse } from './schemas.js';
import type { createFlagsService } from './service.js';

/** Flags and challenges on a story: readers file them (human signed), everyone reads them. */
export const flagsModule: FastifyPluginAsyncTypebox<{ service: ReturnType<typeof createFlagsService> }> = async (app, { service }) => {
  app.get(
    '/v1/stories/:id/flags',
    {
      config: { auth: { kind: 'public' }, readCache: { story: 'id' } },
      schema: {
        operationId: 'listFlags',
        tags: ['stories'],
        summary: 'Flags and challenges on a story, oldest first (keyset cursor)',
        description:
          'Public: no credentials, counted against the per-IP read limit (600 a minute by default) and served from the public read cache while nothing was written. Lists the flags and challenges on a published story, oldest first; `limit` 1 to 100 (default 50) with a keyset cursor bound to the story. A candidate or a story hidden by moderation is 404.',
        params: StoryParams,
        querystring: PageQuery,
        response: {
          200: answer(FlagsResponse, 'One page of flags, oldest first, with nextCursor when there are more.'),
          ...errors(400, 404, 429),
        },
      },
    },
    async (request) => service.list(request.params.id, request.query),
  );

  app.post(
    '/v1/stories/:id/flags',
    {
      config: { auth: { kind: 'human-write' } },
      schema: {
        operationId: 'createFlag',
        tags: ['stories'],
        summary: 'Flag a story or one of its claims',
        description:
          "A human signed write sent by the front end for its user (120 writes a minute per actorId). Flags a story, or one claim of its current packet, with a severity and a reason; one flag per reader per story and claim (409 FLAG_ALREADY_RECORDED). A HIGH flag must name a claim and consumes a verified human action flag_high_severity:<claimId> of the flagger's own linked human (409 HUMAN_VERIFICATION_REQUIRED without it): it is a challenge, which puts the story UNDER_REVIEW and writes a CHALLENGE on the ledger. The answer is the flag, with the story's review status after it.",
        params: StoryParams,
        body: FlagBody,
        response: {
          202: answer(
            FlagResponse,
            "Accepted: the flag as stored, whether it is a challenge, the verified action it consumed and the story's review status now.",
          ),
          ...errors(400, 401, 404, 409, 429, 503),
        },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.create(humanActor(request), request.params.id, request.body, await request.governance())),
  );
};
