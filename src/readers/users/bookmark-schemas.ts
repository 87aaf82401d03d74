import { Type, type Static } from '@sinclair/typebox';
import { CursorParam, NextCursor } from '../../platform/cursor.js';
import { LangParam } from '../../platform/i18n/index.js';
import { DateTime, HumanActorBody, HumanActorQuery } from '../../platform/schemas.js';
import { StoryId } from '../../newsroom/common/schemas.js';
import { StoryCard } from '../../newsroom/stories/schemas.js';

export const BOOKMARKS_PAGE_DEFAULT = 20;

/** The seed's "bookmark create" request. */
export const BookmarkCreateBody = Type.Object(
  { ...HumanActorBody, storyId: StoryId },
  { title: 'CreateBookmarkRequest', additionalProperties: false },
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
  { title: 'Bookmark' },
);
export type Bookmark = Static<typeof Bookmark>;

export const BookmarkCreated = Type.Object(
  {
    actorId: Type.String(),
    storyId: Type.String(),
    bookmarkedAt: DateTime,
    created: Type.Boolean({ description: 'false: the story was bookmarked already (the first bookmark is kept as it was)' }),
  },
  { title: 'BookmarkCreated' },
);
export type BookmarkCreated = Static<typeof BookmarkCreated>;

export const BookmarksPage = Type.Object(
  {
    actorId: Type.String(),
    items: Type.Array(Bookmark, { description: 'Newest bookmark first' }),
    nextCursor: NextCursor,
  },
  { title: 'BookmarksPage' },
);
export type BookmarksPage = Static<typeof BookmarksPage>;

export const BookmarkRemoved = Type.Object(
  {
    actorId: Type.String(),
    storyId: Type.String(),
    removed: Type.Boolean({ description: 'false: there was no such bookmark (nothing changed)' }),
    bookmarkedAt: Type.Union([DateTime, Type.Null()], { description: 'When the removed bookmark was made; null when none was removed' }),
  },
  { title: 'BookmarkRemoved' },
);
export type BookmarkRemoved = Static<typeof BookmarkRemoved>;
