import { Type, type Static } from '@sinclair/typebox';
import { CursorParam, NextCursor } from '../../platform/cursor.js';
import { LangParam } from '../../platform/i18n/index.js';
import { ActorId, Identifier, TextBoolean } from '../../platform/schemas.js';
import { StringEnum } from '../../platform/string-enum.js';
import { RoomSlug } from '../common/schemas.js';
import { StoryCard } from '../stories/schemas.js';
import { feedPageExample } from './examples.js';

export const FEED_MODES = ['trending', 'graduated', 'developing', 'recent'] as const;
export type FeedMode = (typeof FEED_MODES)[number];

export const FeedModeSchema = StringEnum(FEED_MODES, {
  default: 'trending',
  description:
    'trending (default): trending score; graduated: graduation time; developing: provisional stories still under review; recent: publication time',
});

/**
 * Unknown parameters are refused (400): the public read cache keys bodies by the validated query. The actor
 * parameters make a signed read (signature headers required):
 * the trending feed is then ranked for that reader and never cached.
 */
export const FeedQuery = Type.Object(
  {
    room: Type.Optional(RoomSlug),
    lang: LangParam,
    mode: Type.Optional(FeedModeSchema),
    cursor: CursorParam,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
    actorId: Type.Optional({ ...ActorId, description: 'Signed reader (optional): rank the trending feed for this reader' }),
    verified: Type.Optional(TextBoolean),
    linkedHumanId: Type.Optional(Identifier),
  },
  { additionalProperties: false },
);
export type FeedQuery = Static<typeof FeedQuery>;

export const FeedResponse = Type.Object(
  {
    mode: FeedModeSchema,
    modeLabel: Type.String({ description: 'Localized name of the mode' }),
    items: Type.Array(StoryCard),
    nextCursor: NextCursor,
    personalized: Type.Optional(
      Type.Boolean({
        description: 'Present (true) when the trending feed was ranked for the signed reader: followed topics and unread stories first',
      }),
    ),
  },
  {
    title: 'FeedPage',
    description: 'One page of the feed in one mode: story cards, the localized mode name, and nextCursor when there is a next page.',
    examples: [feedPageExample],
  },
);
export type FeedResponse = Static<typeof FeedResponse>;
