import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
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

// Statuses of docs/reader-accounts.md, "Statuses"; 403 is LINKED_HUMAN_NOT_BOUND,
// 429 the rate limits.
const failures = errors(400, 401, 403, 409, 429, 503);
const signedRead = { auth: { kind: 'human-read' as const } };
// A reader's own data appears in no public read: these writes leave the public read cache alone.
const signedWrite = { auth: { kind: 'human-write' as const }, changesPublicReads: false as const };

/** The signed reader's own data under /v1/users/me: nothing here can name another reader. */
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
        description:
          "A human signed read of the signed reader's own data (the actor of the signed query; no route takes another user's id); reads count against the per-IP read limit and are answered cache-control: private, no-store. Answers the reader's preferences (language, feed mode, rooms, e-mail digest, contested stories, personalization) and when they last changed; a reader without any has an empty document and updatedAt null.",
        querystring: SignedReadQuery,
        response: {
          200: answer(PreferencesResponse, "The reader's preferences and when they were last updated (null: never)."),
          ...failures,
        },
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
        description:
          "A human signed write on the signed reader's own data (the actor of the body; no route takes another user's id), 120 writes a minute per actorId. Merges the fields sent into the stored preferences field by field (a field left out keeps its value); `personalization: true` starts recording the stories the reader reads and ranks their feed by it, false stops both at once. The answer is the whole document after the merge.",
        body: PreferencesUpdateBody,
        response: {
          202: answer(PreferencesResponse, "Accepted: the reader's preferences after the merge, with the time of the update."),
          ...failures,
        },
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
        description:
          "A human signed read of the signed reader's own data (the actor of the signed query; no route takes another user's id); reads count against the per-IP read limit and are answered cache-control: private, no-store. Lists the reader's bookmarks newest first, `limit` 1 to 100 (default 20) with a keyset cursor, each with the public story card in `lang`; a story hidden by moderation since stays bookmarked but shows story null.",
        querystring: BookmarksQuery,
        response: {
          200: answer(BookmarksPage, "One page of the reader's bookmarks, newest first, with nextCursor when there are more."),
          ...failures,
        },
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
        description:
          "A human signed write on the signed reader's own data (the actor of the body; no route takes another user's id), 120 writes a minute per actorId. Bookmarks a published story the public can see (404 for a candidate or a hidden story); one bookmark per reader and story, so bookmarking it again answers 202 with created false and the first bookmark unchanged. The answer is the bookmark.",
        body: BookmarkCreateBody,
        response: {
          202: answer(
            BookmarkCreated,
            'Accepted: the bookmark, with created true when it is new or false when the story was bookmarked already.',
          ),
          ...errors(400, 401, 403, 404, 409, 429, 503),
        },
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
        description:
          "A human signed write on the signed reader's own data (the actor of the body; no route takes another user's id), 120 writes a minute per actorId. Removes the reader's bookmark of a story; a bookmark that does not exist is not an error: the answer says removed false and changes nothing. It answers 200 with what it removed.",
        params: BookmarkParams,
        body: UserActorBody,
        response: {
          200: answer(
            BookmarkRemoved,
            'Removed: the bookmark that was removed and when it had been made, or removed false when there was none.',
          ),
          ...failures,
        },
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
        description:
          "A human signed read of the signed reader's own data (the actor of the signed query; no route takes another user's id); reads count against the per-IP read limit and are answered cache-control: private, no-store. Lists the topics the reader follows, oldest follow first: rooms (matched against a story's room) and free tags (matched as a phrase in a story's text), each with its normalized key and the label as first sent, and the most a reader may follow (100).",
        querystring: SignedReadQuery,
        response: { 200: answer(TopicsList, 'The topics the reader follows, oldest first, and the limit.'), ...failures },
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
        description:
          "A human signed write on the signed reader's own data (the actor of the body; no route takes another user's id), 120 writes a minute per actorId. Follows a room (kind ROOM, a room slug) or a free tag (kind TAG, the default); the topic is normalized (NFC, lower case, whitespace collapsed) so that any spelling is one topic, and following it again answers created false. At most 100 topics per reader (409 TOPIC_LIMIT_REACHED). The answer is the followed topic.",
        body: TopicFollowBody,
        response: {
          202: answer(
            TopicFollowed,
            'Accepted: the topic as followed (normalized key, kind, label), with created false when it was followed already.',
          ),
          ...failures,
        },
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
        description:
          "A human signed write on the signed reader's own data (the actor of the body; no route takes another user's id), 120 writes a minute per actorId. Unfollows a topic named by any spelling of it (percent-encoded in the path), normalized the same way as a follow; a topic not followed is not an error: the answer says removed false. It answers 200 with what it removed.",
        params: TopicParams,
        body: UserActorBody,
        response: {
          200: answer(TopicRemoved, 'Removed: the normalized topic, whether it was followed, its kind and when it had been followed.'),
          ...failures,
        },
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
        description:
          "A human signed read of the signed reader's own data (the actor of the signed query; no route takes another user's id); reads count against the per-IP read limit and are answered cache-control: private, no-store. Everything the service holds about the reader, as one JSON document read in one snapshot: identity records, preferences, bookmarks, topics, personalization history, comments, flags, reward votes, payout recipient, wallets, payouts and paid-action usage (docs/reader-accounts.md documents every section). The layout has a schemaVersion.",
        querystring: SignedReadQuery,
        response: {
          200: answer(UserExportResponse, 'The export document: its layout version, when it was made, and every section.'),
          ...failures,
        },
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
        description:
          "A human signed write on the signed reader's own data (the actor of the body; no route takes another user's id), 120 writes a minute per actorId. Deletes the reader's personalization history (the stories recorded as read) and nothing else: bookmarks, topics, preferences and comments stay. The rows are deleted at commit; clearing again answers cleared 0.",
        body: UserActorBody,
        response: {
          202: answer(HistoryCleared, 'Accepted: how many stories the erased history held (0 when it was empty) and when it was cleared.'),
          ...failures,
        },
      },
    },
    async (request, reply) => reply.code(202).send(await history.clear(humanActor(request))),
  );
};
