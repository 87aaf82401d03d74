import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
import { StoryParams } from '../common/schemas.js';
import { PageQuery } from '../stories/evidence-schemas.js';
import { CommentBody, CommentDeleteBody, CommentEditBody, CommentParams, CommentResponse, CommentsResponse } from './schemas.js';
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

  app.patch(
    '/v1/stories/:id/comments/:commentId',
    {
      config: { auth: { kind: 'human-write' } },
      schema: {
        operationId: 'editComment',
        tags: ['stories'],
        summary: "Edit the text of one's own comment, within 15 minutes of posting it",
        description:
          'A human signed write sent by the front end for its user (120 writes a minute per actorId). The author of a comment (the actorId that posted it; anyone else is 403 COMMENT_NOT_YOURS) replaces its text, within 15 minutes of posting it (409 COMMENT_EDIT_WINDOW_CLOSED after); a deleted comment cannot be edited (409 COMMENT_DELETED). The body follows the rules of a new comment (1 to 5,000 characters, not white space alone). Every read then shows the new text with editedAt. An unknown comment, or one on another story, is 404.',
        params: CommentParams,
        body: CommentEditBody,
        response: {
          200: answer(CommentResponse, 'Edited: the comment with its new text and editedAt.'),
          ...errors(400, 401, 403, 404, 409, 429, 503),
        },
      },
    },
    async (request) => service.edit(humanActor(request), request.params.id, request.params.commentId, request.body),
  );

  app.delete(
    '/v1/stories/:id/comments/:commentId',
    {
      config: { auth: { kind: 'human-write' } },
      schema: {
        operationId: 'deleteComment',
        tags: ['stories'],
        summary: "Delete one's own comment (its place in the thread stays, marked deleted)",
        description:
          'A human signed write sent by the front end for its user (120 writes a minute per actorId). The author of a comment (anyone else is 403 COMMENT_NOT_YOURS) deletes it, at any time: its text is removed for good from every read, and the comment stays in the list as a marker (deleted true, body empty, no author name) so that the replies under it keep their place. The story counts one comment fewer. Deleting a deleted comment changes nothing and answers it again. An unknown comment, or one on another story, is 404.',
        params: CommentParams,
        body: CommentDeleteBody,
        response: {
          200: answer(CommentResponse, 'Deleted: the comment as it now reads (deleted true, body empty).'),
          ...errors(400, 401, 403, 404, 429, 503),
        },
      },
    },
    async (request) => service.remove(humanActor(request), request.params.id, request.params.commentId, await request.governance()),
  );
};
