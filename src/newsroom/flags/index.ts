import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { errors } from '../../platform/schemas.js';
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
        params: StoryParams,
        querystring: PageQuery,
        response: { 200: FlagsResponse, ...errors(400, 404, 429) },
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
        params: StoryParams,
        body: FlagBody,
        response: { 202: FlagResponse, ...errors(400, 401, 404, 409, 429, 503) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.create(humanActor(request), request.params.id, request.body, await request.governance())),
  );
};
