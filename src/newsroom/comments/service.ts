import { authorColumns, type HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import { pageOf, type CursorCodec } from '../../platform/cursor.js';
import type { Db, Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { withTransaction, type Transactor, type TxEvents } from '../../platform/db/transaction.js';
import { appError, notFound, validationFailed } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recomputeConsensus, type HumanActions } from '../consensus/service.js';
import type { Parameters } from '../../governance/parameters/parameters.js';
import { PAGE_LIMIT_DEFAULT, type PageQuery } from '../stories/evidence-schemas.js';
import { requirePublished } from '../stories/policy.js';
import { newestOnReadable } from '../stories/readable-titles.js';
import type { ReadableStory, StoriesService } from '../stories/service.js';
import { lockVisibleStory } from '../stories/story-lock.js';
import { decrementCommentCount, incrementCommentCount } from '../stories/story-lock.js';
import {
  commentExists,
  commentsAfter,
  commentsByAuthor,
  insertComment,
  lockComment,
  markCommentDeleted,
  updateCommentBody,
} from './repository.js';
import type { Comment, CommentBody, CommentsResponse } from './schemas.js';

/** How long after posting its author may edit a comment's text (deleting it has no limit). */
export const COMMENT_EDIT_WINDOW_MS = 15 * 60_000;

/** White space alone says nothing: refused like a missing body, before anything is locked or written. */
const requireWords = (text: string) => {
  if (text.trim() === '') throw validationFailed([{ path: '/body', message: 'a comment needs more than white space' }]);
};

/**
 * A comment as every read answers it. A deleted one keeps its place (id, parent, when) with an empty body and
 * without its author's name: the thread under it stays readable, the text is gone.
 */
const presentComment = (
  c: {
    id: string;
    actor_id: string;
    verified: boolean;
    parent_id: string | null;
    body: string;
    created_at: Date;
    edited_at: Date | null;
    deleted_at: Date | null;
  },
  authorName: string | undefined,
): Comment => {
  const deleted = c.deleted_at !== null;
  return {
    id: c.id,
    actorId: c.actor_id,
    ...(authorName === undefined || deleted ? {} : { authorName }),
    verified: c.verified,
    parentId: c.parent_id,
    body: deleted ? '' : c.body,
    createdAt: c.created_at.toISOString(),
    ...(c.edited_at && !deleted ? { editedAt: c.edited_at.toISOString() } : {}),
    deleted,
  };
};

/** Whether a comment posted at `createdAt` may still be edited at `now`. */
export function editableAt(createdAt: Date, now: Date): boolean {
  return now.getTime() - createdAt.getTime() <= COMMENT_EDIT_WINDOW_MS;
}

/**
 * The port through which comments name their authors: the display names of readers/names, by actor id (an actor
 * without a name is absent). Wired in the composition root; without it comments carry ids only.
 */
export type AuthorNames = (actorIds: Iterable<string>) => Promise<ReadonlyMap<string, string>>;
const NO_NAMES: AuthorNames = async () => new Map();

/** Reader comments: written by signed readers, listed publicly. */
export function createCommentsService(deps: {
  db: Db<NewsroomTables>;
  transactor: Transactor<NewsroomTables>;
  clock: Clock;
  cursors: CursorCodec;
  stories: Pick<StoriesService, 'readable'>;
  humanActions: HumanActions;
  authorNames?: AuthorNames;
}) {
  const { db, transactor, clock, cursors, stories, humanActions } = deps;
  const authorNames = deps.authorNames ?? NO_NAMES;

  /** Comments of a story the caller already read through stories.readable (the site's story page reuses its one access check). */
  async function listForReadableStory(story: ReadableStory, page: PageQuery): Promise<CommentsResponse> {
    const kind = `comments:${story.id}`;
    const limit = page.limit ?? PAGE_LIMIT_DEFAULT;
    const rows = await commentsAfter(db, story.id, cursors.afterSeq(kind, page.cursor), limit + 1);
    const { items, nextCursor } = pageOf(rows, limit, (last) => cursors.encode(kind, [last.seq]));
    const names = await authorNames(items.map((c) => c.actor_id));
    return {
      storyId: story.id,
      items: items.map((c) => presentComment(c, names.get(c.actor_id))),
      ...(nextCursor ? { nextCursor } : {}),
    };
  }

  /** Locks a visible story and the actor's own comment on it: 404 for no such comment, 403 for someone else's. */
  async function lockOwnComment(tx: Tx<NewsroomTables>, events: TxEvents, actor: HumanActor, storyId: string, commentId: string) {
    const story = await lockVisibleStory(tx, events, storyId);
    const comment = await lockComment(tx, story.id, commentId);
    if (!comment) throw notFound('comment');
    if (comment.actor_id !== actor.actorId) throw appError('COMMENT_NOT_YOURS');
    return { story, comment };
  }

  return {
    /** A comment on a published story (optionally a reply); the comment count moves the trending score. */
    async create(actor: HumanActor, storyId: string, body: CommentBody, params: Parameters) {
      requireWords(body.body);
      return withTransaction(transactor, async (tx, events) => {
        const story = requirePublished(await lockVisibleStory(tx, events, storyId));
        if (body.parentId && !(await commentExists(tx, story.id, body.parentId)))
          throw validationFailed([{ path: '/parentId', message: 'no such comment on this story' }]);
        const now = new Date(clock.now());
        const row = await insertComment(tx, {
          id: newId('cm'),
          story_id: story.id,
          ...authorColumns(actor),
          parent_id: body.parentId ?? null,
          body: body.body,
          created_at: now,
        });
        await incrementCommentCount(tx, story);
        await recomputeConsensus(humanActions, tx, events, { ...story, comment_count: story.comment_count + 1 }, params, now);
        return { storyId: row.story_id, ...presentComment(row, undefined) };
      });
    },

    /**
     * The author's new text for their comment, within COMMENT_EDIT_WINDOW_MS of posting (409
     * COMMENT_EDIT_WINDOW_CLOSED after; 409 COMMENT_DELETED for a deleted one). Someone else's comment is 403
     * COMMENT_NOT_YOURS: comments are public, so hiding that it exists would hide nothing.
     */
    async edit(actor: HumanActor, storyId: string, commentId: string, body: { body: string }) {
      requireWords(body.body);
      return withTransaction(transactor, async (tx, events) => {
        const { story, comment } = await lockOwnComment(tx, events, actor, storyId, commentId);
        if (comment.deleted_at) throw appError('COMMENT_DELETED');
        const now = new Date(clock.now());
        if (!editableAt(comment.created_at, now)) throw appError('COMMENT_EDIT_WINDOW_CLOSED');
        const row = await updateCommentBody(tx, comment.id, body.body, now);
        return { storyId: story.id, ...presentComment(row, undefined) };
      });
    },

    /**
     * The author deletes their comment, at any time: its text is emptied for good, its row stays as a marker so
     * that replies keep their place, and the story counts one comment fewer (engagement and consensus follow).
     * Deleting a deleted comment changes nothing and answers it again.
     */
    async remove(actor: HumanActor, storyId: string, commentId: string, params: Parameters) {
      return withTransaction(transactor, async (tx, events) => {
        const { story, comment } = await lockOwnComment(tx, events, actor, storyId, commentId);
        if (comment.deleted_at) return { storyId: story.id, ...presentComment(comment, undefined) };
        const now = new Date(clock.now());
        const row = await markCommentDeleted(tx, comment.id, now);
        await decrementCommentCount(tx, story);
        const count = Math.max(story.comment_count - 1, 0);
        await recomputeConsensus(humanActions, tx, events, { ...story, comment_count: count }, params, now);
        return { storyId: story.id, ...presentComment(row, undefined) };
      });
    },

    /** Comments oldest first, keyset on their sequence. */
    async list(id: string, page: PageQuery): Promise<CommentsResponse> {
      return listForReadableStory(await stories.readable(id), page);
    },

    listForReadableStory,

    /**
     * The author's newest comments (up to `limit`) on stories the public can read, newest first, each with its
     * story's id and title: a reader's profile page.
     */
    async byAuthor(actorId: string, limit: number) {
      const kept = await newestOnReadable(stories, (n) => commentsByAuthor(db, actorId, n), limit);
      return kept.map(({ row, story }) => ({ ...presentComment(row, undefined), story }));
    },
  };
}
