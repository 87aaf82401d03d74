import { Type, type Static } from '@sinclair/typebox';
import { CursorParam, NextCursor } from '../../platform/cursor.js';
import { LangParam } from '../../platform/i18n/index.js';
import { DateTime, HumanActorBody, HumanActorQuery } from '../../platform/schemas.js';
import { StoryId } from '../../newsroom/common/schemas.js';
import { StoryCard } from '../../newsroom/stories/schemas.js';
import {
  bookmarkCreatedExample,
  bookmarkExample,
  bookmarkRemovedExample,
  bookmarksPageExample,
  createBookmarkExample,
} from './examples.js';

export const BOOKMARKS_PAGE_DEFAULT = 20;

/** The seed's "bookmark create" request. */
export const BookmarkCreateBody = Type.Object(
  { ...HumanActorBody, storyId: StoryId },
  {
    title: 'CreateBookmarkRequest',
    description: 'Body that bookmarks a story: the actor fields and the story id.',
    examples: [createBookmarkExample],
    additionalProperties: false,
  },
);
export type BookmarkCreateBody = Static<typeof BookmarkCreateBody>;

export const BookmarkParams = Type.Object({ storyId: StoryId });

export const BookmarksQuery = Type.Object(
  {
    ...HumanActorQuery,
    cursor: CursorParam,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: BOOKMARKS_PAGE_DEFAULT })),
    lang: LangParam,
  },
  { additionalProperties: false },
);
export type BookmarksQuery = Static<typeof BookmarksQuery>;

export const Bookmark = Type.Object(
  {
    storyId: Type.String(),
    bookmarkedAt: DateTime,
    story: Type.Union([StoryCard, Type.Null()], {
      description: 'The story as the public sees it now; null once it is hidden by moderation (the bookmark itself is kept)',
    }),
  },
  {
    title: 'Bookmark',
    description:
      "One of a reader's bookmarks: the story id, when it was bookmarked and the public story card (null once moderation hides the story).",
    examples: [bookmarkExample],
  },
);
export type Bookmark = Static<typeof Bookmark>;

export const BookmarkCreated = Type.Object(
  {
    actorId: Type.String(),
    storyId: Type.String(),
    bookmarkedAt: DateTime,
    created: Type.Boolean({ description: 'false: the story was bookmarked already (the first bookmark is kept as it was)' }),
  },
  {
    title: 'BookmarkCreated',
    description: 'A bookmark as the write answers it, with whether it is new.',
    examples: [bookmarkCreatedExample],
  },
);
export type BookmarkCreated = Static<typeof BookmarkCreated>;

export const BookmarksPage = Type.Object(
  {
    actorId: Type.String(),
    items: Type.Array(Bookmark, { description: 'Newest bookmark first' }),
    nextCursor: NextCursor,
  },
  {
    title: 'BookmarksPage',
    description: "One page of a reader's bookmarks, newest first; nextCursor is present when there is a next page.",
    examples: [bookmarksPageExample],
  },
);
export type BookmarksPage = Static<typeof BookmarksPage>;

export const BookmarkRemoved = Type.Object(
  {
    actorId: Type.String(),
    storyId: Type.String(),
    removed: Type.Boolean({ description: 'false: there was no such bookmark (nothing changed)' }),
    bookmarkedAt: Type.Union([DateTime, Type.Null()], { description: 'When the removed bookmark was made; null when none was removed' }),
  },
  {
    title: 'BookmarkRemoved',
    description: 'What removing a bookmark did: whether one was removed and when it had been made.',
    examples: [bookmarkRemovedExample],
  },
);
export type BookmarkRemoved = Static<typeof BookmarkRemoved>;
