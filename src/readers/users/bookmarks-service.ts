import type { HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import { pageOf, type CursorCodec } from '../../platform/cursor.js';
import type { Db } from '../../platform/db/database.js';
import type { ReadersTables } from '../tables.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { notFound } from '../../platform/errors.js';
import { canReadStory } from '../../newsroom/stories/policy.js';
import { presentCard, type StoryCardRow } from '../../newsroom/stories/presenter.js';
import type { ModerationStatus, PublicationStage } from '../../newsroom/rows.js';
import {
  BOOKMARKS_PAGE_DEFAULT,
  type BookmarkCreated,
  type BookmarkRemoved,
  type BookmarksPage,
  type BookmarksQuery,
} from './bookmark-schemas.js';
import { bookmarksAfter, deleteBookmark, hasBookmark, insertBookmark, savedStoryIds } from './bookmarks-repository.js';

/** The cursor kind of the bookmark list: a cursor of another listing is 400 INVALID_CURSOR. */
const CURSOR_KIND = 'bookmarks';

/** newsroom → readers' bookmarks: what a reader's bookmarks show of the stories they saved. */
export interface BookmarkStories {
  /** What decides whether a reader may bookmark a story (it exists, is visible, is published), or null. */
  find(storyId: string): Promise<{ id: string; moderation_status: ModerationStatus; publication_stage: PublicationStage } | null>;
  /** The cards of those of `storyIds` the public may still see, with when each was last corrected; in any order. */
  cards(storyIds: readonly string[]): Promise<StoryCardRow[]>;
}

/**
 * A reader's bookmarks. Every method acts on the signed actor only: no parameter names another reader, so
 * nobody can read or change someone else's bookmarks.
 */
export function createBookmarksService(deps: {
  db: Db<ReadersTables>;
  transactor: Transactor<ReadersTables>;
  clock: Clock;
  cursors: CursorCodec;
  stories: BookmarkStories;
}) {
  const { db, transactor, clock, cursors, stories } = deps;
  return {
    /** Bookmarks a published story the public can see (404 otherwise); the same bookmark again is kept as it was. */
    async create(actor: HumanActor, storyId: string): Promise<BookmarkCreated> {
      const story = await stories.find(storyId);
      if (!story || !canReadStory(story) || story.publication_stage === 'CANDIDATE') throw notFound('story');
      return withTransaction(transactor, async (tx) => {
        const row = await insertBookmark(tx, { actor_id: actor.actorId, story_id: story.id, created_at: new Date(clock.now()) });
        return { actorId: actor.actorId, storyId: story.id, bookmarkedAt: row.created_at.toISOString(), created: row.created };
      });
    },

    /** Newest first, keyset on (bookmarkedAt, storyId). */
    async list(actor: HumanActor, query: BookmarksQuery): Promise<BookmarksPage> {
      const limit = query.limit ?? BOOKMARKS_PAGE_DEFAULT;
      const lang = query.lang ?? 'en';
      let after: { at: string; storyId: string } | null = null;
      if (query.cursor) {
        const [at, storyId] = cursors.decode(CURSOR_KIND, query.cursor, ['timestamp', 'string']);
        after = { at: at as string, storyId: storyId as string };
      }
      const rows = await bookmarksAfter(db, actor.actorId, after, limit + 1);
      const { items, nextCursor } = pageOf(rows, limit, (last) => cursors.encode(CURSOR_KIND, [last.sort_at, last.story_id]));
      // one statement for the page's cards: a story the public no longer sees has none
      const cards = new Map((await stories.cards(items.map((row) => row.story_id))).map((card) => [card.id, card]));
      return {
        actorId: actor.actorId,
        items: items.map((row) => {
          const card = cards.get(row.story_id);
          return { storyId: row.story_id, bookmarkedAt: row.created_at.toISOString(), story: card ? presentCard(card, lang) : null };
        }),
        ...(nextCursor ? { nextCursor } : {}),
      };
    },

    /** The ids of the stories an actor saved, the newest 500 (what their notifications watch). */
    savedIds: (actorId: string) => savedStoryIds(db, actorId, 500),

    /** Whether the reader bookmarked `storyId` (the story page shows "Bookmarked" with a way to remove it). */
    async has(actor: HumanActor, storyId: string): Promise<boolean> {
      return hasBookmark(db, actor.actorId, storyId);
    },

    /** Removes the bookmark; a missing one is not an error (`removed: false`). */
    async remove(actor: HumanActor, storyId: string): Promise<BookmarkRemoved> {
      const removed = await withTransaction(transactor, (tx) => deleteBookmark(tx, actor.actorId, storyId));
      return {
        actorId: actor.actorId,
        storyId,
        removed: Boolean(removed),
        bookmarkedAt: removed ? removed.created_at.toISOString() : null,
      };
    },
  };
}
