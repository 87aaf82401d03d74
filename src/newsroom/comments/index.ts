import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
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
        description:
          'Public: no credentials, counted against the per-IP read limit (600 a minute by default) and served from the public read cache while nothing was written. Lists the comments on a published story, oldest first; `limit` 1 to 100 (default 50) with a keyset cursor bound to the story. A candidate or a story hidden by moderation is 404.',
        params: StoryParams,
        querystring: PageQuery,
        response: {
          200: answer(CommentsResponse, 'One page of comments, oldest first, with nextCursor when there are more.'),
          ...errors(400, 404, 429),
        },
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
        description:
          "A human signed write sent by the front end for its user (120 writes a minute per actorId). Comments on a story readers can see (a candidate or a hidden story is 404); a reply names a `parentId` on the same story (400 otherwise); the body is 1 to 5,000 characters and not white space alone (400 VALIDATION_FAILED, nothing is posted). The comment counts in the story's engagement (trending score). The answer is the comment as stored, with its id.",
        params: StoryParams,
        body: CommentBody,
        response: {
          202: answer(CommentResponse, 'Accepted: the comment as stored, with its id and the story it is on.'),
          ...errors(400, 401, 404, 409, 429, 503),
        },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.create(humanActor(request), request.params.id, request.body, await request.governance())),
  );
};
