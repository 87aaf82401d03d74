import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { errors } from '../../platform/schemas.js';
import { BookmarkCreateBody, BookmarkCreated, BookmarkParams, BookmarkRemoved, BookmarksPage, BookmarksQuery } from './bookmark-schemas.js';
import type { createBookmarksService } from './bookmarks-service.js';
import { UserExportResponse } from './export-schemas.js';
import type { createExportService } from './export-service.js';
import { HistoryCleared } from './history-schemas.js';
import type { createHistoryService } from './history-service.js';
import { PreferencesResponse, PreferencesUpdateBody, SignedReadQuery, UserActorBody } from './schemas.js';
import type { createUsersService } from './service.js';
import { TopicFollowBody, TopicFollowed, TopicParams, TopicRemoved, TopicsList } from './topic-schemas.js';
import type { createTopicsService } from './topics-service.js';

// Statuses of docs/reader-accounts.md, "Statuses"; 403 is LINKED_HUMAN_NOT_BOUND (docs/decisions.md, "Linked
// humans count only when bound"), 429 the rate limits (docs/decisions.md).
const failures = errors(400, 401, 403, 409, 429, 503);
const signedRead = { auth: { kind: 'human-read' as const } };
// A reader's own data appears in no public read: these writes leave the public read cache alone.
const signedWrite = { auth: { kind: 'human-write' as const }, changesPublicReads: false as const };

/** The signed reader's own data under /v1/users/me (docs/reader-accounts.md): nothing here can name another reader. */
export const usersModule: FastifyPluginAsyncTypebox<{
  users: ReturnType<typeof createUsersService>;
  bookmarks: ReturnType<typeof createBookmarksService>;
  topics: ReturnType<typeof createTopicsService>;
  history: ReturnType<typeof createHistoryService>;
  exporter: ReturnType<typeof createExportService>;
}> = async (app, { users, bookmarks, topics, history, exporter }) => {
  // Personal answers: no shared cache may keep them.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'private, no-store');
    return payload;
  });

  app.get(
    '/v1/users/me/preferences',
    {
      config: signedRead,
      schema: {
        operationId: 'getPreferences',
        tags: ['users'],
        summary: "The signed reader's preferences",
        querystring: SignedReadQuery,
        response: { 200: PreferencesResponse, ...failures },
      },
    },
    async (request) => users.getPreferences(humanActor(request)),
  );

  app.post(
    '/v1/users/me/preferences',
    {
      config: signedWrite,
      schema: {
        operationId: 'updatePreferences',
        tags: ['users'],
        summary: 'Update preferences (merged field by field)',
        body: PreferencesUpdateBody,
        response: { 202: PreferencesResponse, ...failures },
      },
    },
    async (request, reply) => reply.code(202).send(await users.updatePreferences(humanActor(request), request.body.preferences)),
  );

  app.get(
    '/v1/users/me/bookmarks',
    {
      config: signedRead,
      schema: {
        operationId: 'listBookmarks',
        tags: ['users'],
        summary: "The signed reader's bookmarks, newest first (keyset cursor)",
        querystring: BookmarksQuery,
        response: { 200: BookmarksPage, ...failures },
      },
    },
    async (request) => bookmarks.list(humanActor(request), request.query),
  );

  app.post(
    '/v1/users/me/bookmarks',
    {
      config: signedWrite,
      schema: {
        operationId: 'createBookmark',
        tags: ['users'],
        summary: 'Bookmark a published story (the same bookmark again is not a duplicate)',
        body: BookmarkCreateBody,
        response: { 202: BookmarkCreated, ...errors(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request, reply) => reply.code(202).send(await bookmarks.create(humanActor(request), request.body.storyId)),
  );

  app.delete(
    '/v1/users/me/bookmarks/:storyId',
    {
      config: signedWrite,
      schema: {
        operationId: 'deleteBookmark',
        tags: ['users'],
        summary: 'Remove a bookmark (200 with removed: false when there was none)',
        params: BookmarkParams,
        body: UserActorBody,
        response: { 200: BookmarkRemoved, ...failures },
      },
    },
    async (request) => bookmarks.remove(humanActor(request), request.params.storyId),
  );

  app.get(
    '/v1/users/me/topics',
    {
      config: signedRead,
      schema: {
        operationId: 'listTopics',
        tags: ['users'],
        summary: 'Followed topics (rooms and tags)',
        querystring: SignedReadQuery,
        response: { 200: TopicsList, ...failures },
      },
    },
    async (request) => topics.list(humanActor(request)),
  );

  app.post(
    '/v1/users/me/topics',
    {
      config: signedWrite,
      schema: {
        operationId: 'followTopic',
        tags: ['users'],
        summary: 'Follow a room or a tag (normalized: the same topic is never followed twice)',
        body: TopicFollowBody,
        response: { 202: TopicFollowed, ...failures },
      },
    },
    async (request, reply) => reply.code(202).send(await topics.follow(humanActor(request), request.body)),
  );

  app.delete(
    '/v1/users/me/topics/:topic',
    {
      config: signedWrite,
      schema: {
        operationId: 'unfollowTopic',
        tags: ['users'],
        summary: 'Unfollow a topic, named by any spelling of it (200 with removed: false when not followed)',
        params: TopicParams,
        body: UserActorBody,
        response: { 200: TopicRemoved, ...failures },
      },
    },
    async (request) => topics.unfollow(humanActor(request), request.params.topic),
  );

  app.get(
    '/v1/users/me/export',
    {
      config: signedRead,
      schema: {
        operationId: 'exportUserData',
        tags: ['users'],
        summary: 'Everything the service holds about the signed reader, as one JSON document (docs/reader-accounts.md)',
        querystring: SignedReadQuery,
        response: { 200: UserExportResponse, ...failures },
      },
    },
    async (request) => exporter.export(humanActor(request)),
  );

  app.post(
    '/v1/users/me/history/clear',
    {
      config: signedWrite,
      schema: {
        operationId: 'clearHistory',
        tags: ['users'],
        summary: 'Erase the personalization history (only that); again: cleared 0',
        body: UserActorBody,
        response: { 202: HistoryCleared, ...failures },
      },
    },
    async (request, reply) => reply.code(202).send(await history.clear(humanActor(request))),
  );
};
