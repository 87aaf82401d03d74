import { authorColumns, type HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import { pageOf, type CursorCodec } from '../../platform/cursor.js';
import type { Db } from '../../platform/db/database.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { validationFailed } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recomputeConsensus } from '../consensus/service.js';
import type { Parameters } from '../../governance/parameters/parameters.js';
import { PAGE_LIMIT_DEFAULT, type PageQuery } from '../stories/evidence-schemas.js';
import { requirePublished } from '../stories/policy.js';
import { readableTitles } from '../stories/readable-titles.js';
import type { ReadableStory, StoriesService } from '../stories/service.js';
import { lockVisibleStory } from '../stories/story-lock.js';
import { incrementCommentCount } from '../stories/story-lock.js';
import { commentExists, commentsAfter, commentsByAuthor, insertComment } from './repository.js';
import type { Comment, CommentBody, CommentsResponse } from './schemas.js';

const presentComment = (
  c: {
    id: string;
    actor_id: string;
    verified: boolean;
    parent_id: string | null;
    body: string;
    created_at: Date;
  },
  authorName: string | undefined,
): Comment => ({
  id: c.id,
  actorId: c.actor_id,
  ...(authorName === undefined ? {} : { authorName }),
  verified: c.verified,
  parentId: c.parent_id,
  body: c.body,
  createdAt: c.created_at.toISOString(),
});

/**
 * The port through which comments name their authors: the display names of readers/names, by actor id (an actor
 * without a name is absent). Wired in the composition root; without it comments carry ids only.
 */
export type AuthorNames = (actorIds: Iterable<string>) => Promise<ReadonlyMap<string, string>>;
const NO_NAMES: AuthorNames = async () => new Map();

/** Reader comments: written by signed readers, listed publicly. */
export function createCommentsService(deps: {
  db: Db;
  transactor: Transactor;
  clock: Clock;
  cursors: CursorCodec;
  stories: Pick<StoriesService, 'readable'>;
  authorNames?: AuthorNames;
}) {
  const { db, transactor, clock, cursors, stories } = deps;
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

  return {
    /** A comment on a published story (optionally a reply); the comment count moves the trending score. */
    async create(actor: HumanActor, storyId: string, body: CommentBody, params: Parameters) {
      // white space alone says nothing: refused like a missing body, before anything is locked or written
      if (body.body.trim() === '') throw validationFailed([{ path: '/body', message: 'a comment needs more than white space' }]);
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
        await recomputeConsensus(tx, events, { ...story, comment_count: story.comment_count + 1 }, params, now);
        return { storyId: row.story_id, ...presentComment(row, undefined) };
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
      const rows = await commentsByAuthor(db, actorId, limit * 2);
      const visible = await readableTitles(
        stories,
        rows.map((r) => r.story_id),
      );
      return rows
        .filter((r) => visible.has(r.story_id))
        .slice(0, limit)
        .map((r) => ({ ...presentComment(r, undefined), story: visible.get(r.story_id)! }));
    },
  };
}
