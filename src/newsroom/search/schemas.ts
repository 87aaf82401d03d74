import { Type, type Static } from '@sinclair/typebox';
import { CursorParam, NextCursor } from '../../platform/cursor.js';
import { LangParam } from '../../platform/i18n/index.js';
import { Identifier, LANGS } from '../../platform/schemas.js';
import { StringEnum } from '../../platform/string-enum.js';
import { PublicationStageSchema, ReviewStatusSchema, StoryCard, StoryStateSchema } from '../stories/schemas.js';
import { searchItemExample, searchPageExample } from './examples.js';

/** Review-case filters of search: they select fraud review cases (src/rewards/review). */
export const ReviewQueueSchema = StringEnum(['PENDING', 'OVERDUE', 'FROZEN', 'APPEALED', 'ESCALATED', 'RESOLVED']);
export const ReviewCaseStatusSchema = StringEnum(['OPEN', 'IN_REVIEW', 'APPEALED', 'ESCALATED', 'RESOLVED', 'DISMISSED']);
export const ReviewTargetTypeSchema = StringEnum(['RECIPIENT', 'STORY', 'BATCH', 'PAYOUT']);

/**
 * A room filter: a room's slug in any case, with spaces around it allowed (the service trims and lowercases it;
 * slugs are lowercase), so "Local" finds the room local.
 */
export const RoomFilter = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^\\s*[A-Za-z0-9]+(-[A-Za-z0-9]+)*\\s*$',
  description: 'A room slug, matched case-insensitively',
});

/** Unknown parameters are refused (400): the public read cache keys bodies by the validated query. */
export const SearchQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({ maxLength: 500, pattern: '^[^\\u0000]*$', description: 'Web-search syntax: words, "quoted phrases", OR, -excluded' }),
    ),
    room: Type.Optional(RoomFilter),
    lang: LangParam,
    state: Type.Optional(StoryStateSchema),
    publicationStage: Type.Optional(PublicationStageSchema),
    reviewStatus: Type.Optional(ReviewStatusSchema),
    cursor: CursorParam,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    queue: Type.Optional(ReviewQueueSchema),
    status: Type.Optional(ReviewCaseStatusSchema),
    assignedToActorId: Type.Optional(Identifier),
    targetType: Type.Optional(ReviewTargetTypeSchema),
  },
  { additionalProperties: false },
);
export type SearchQuery = Static<typeof SearchQuery>;

export const SearchItem = Type.Composite(
  [StoryCard, Type.Object({ rank: Type.Optional(Type.Number({ description: 'Relevance (only when q is given)' })) })],
  {
    title: 'SearchItem',
    description: 'A story card found by search, with its relevance rank when q was given.',
    examples: [searchItemExample],
  },
);

export const SearchResponse = Type.Object(
  {
    items: Type.Array(SearchItem),
    nextCursor: NextCursor,
    query: Type.Object(
      {
        q: Type.Optional(Type.String()),
        room: Type.Optional(Type.String()),
        lang: StringEnum(LANGS),
        state: Type.Optional(StoryStateSchema),
        publicationStage: Type.Optional(PublicationStageSchema),
        reviewStatus: Type.Optional(ReviewStatusSchema),
        queue: Type.Optional(Type.String()),
        status: Type.Optional(Type.String()),
        assignedToActorId: Type.Optional(Type.String()),
        targetType: Type.Optional(Type.String()),
        limit: Type.Integer(),
        order: Type.Union([Type.Literal('relevance'), Type.Literal('recent')]),
      },
      { description: 'The filters applied, as understood by the service' },
    ),
    suggestion: Type.Optional(
      Type.Object(
        { q: Type.String({ description: 'The query with each word found nowhere replaced by the nearest word of a published title' }) },
        {
          description:
            'Did you mean: present when q found nothing and a corrected query ("libary" → "library") finds at least one story with the same filters',
        },
      ),
    ),
    reviewCases: Type.Optional(
      Type.Object(
        {
          items: Type.Array(
            Type.Object({
              id: Type.String(),
              targetType: ReviewTargetTypeSchema,
              status: ReviewCaseStatusSchema,
              queue: ReviewQueueSchema,
              assignedToActorId: Type.Union([Type.String(), Type.Null()]),
              createdAt: Type.String({ format: 'date-time' }),
              updatedAt: Type.String({ format: 'date-time' }),
            }),
          ),
          available: Type.Boolean(),
        },
        {
          description:
            'Present when a review-case filter is given: the fraud review cases matching all given review-case filters, oldest first, at most `limit` (public view: no target id or reason)',
        },
      ),
    ),
  },
  {
    title: 'SearchPage',
    description:
      'One page of search results, the query as the service applied it, a corrected query when the words found nothing, and the matching fraud review cases when a review-case filter was given.',
    examples: [searchPageExample],
  },
);
export type SearchResponse = Static<typeof SearchResponse>;
