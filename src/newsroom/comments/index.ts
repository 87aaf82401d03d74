import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { errors } from '../../platform/schemas.js';
import { StoryParams } from '../common/schemas.js';
import { PageQuery } from '../stories/evidence-schemas.js';
import { CommentBody, CommentResponse, CommentsResponse } from './schemas.js';
import type { createCommentsService } from './service.js';

/** Comments on a story: readers write them (human signed), everyone reads them. */
export const commentsModule: FastifyPluginAsyncTypebox<{ service: ReturnType<typeof createCommentsService> }> = async (
  app,
  { service },
) => {
  app.get(
    '/v1/stories/:id/comments',
    {
      config: { auth: { kind: 'public' }, readCache: { story: 'id' } },
      schema: {
        operationId: 'listComments',
        tags: ['stories'],
        summary: 'Comments on a story, oldest first (keyset cursor)',
        params: StoryParams,
        querystring: PageQuery,
        response: { 200: CommentsResponse, ...errors(400, 404, 429) },
      },
    },
    async (request) => service.list(request.params.id, request.query),
  );

  app.post(
    '/v1/stories/:id/comments',
    {
      config: { auth: { kind: 'human-write' } },
      schema: {
        operationId: 'createComment',
        tags: ['stories'],
        summary: 'Comment on a story',
        params: StoryParams,
        body: CommentBody,
        response: { 202: CommentResponse, ...errors(400, 401, 404, 409, 429, 503) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.create(humanActor(request), request.params.id, request.body, await request.governance())),
  );
};
