import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PageCursorParam } from '../../platform/cursor.js';
import { LangParam } from '../../platform/i18n/index.js';
import { StringEnum } from '../../platform/string-enum.js';
import { FeedModeSchema } from '../../newsroom/feed/schemas.js';
import { LEDGER_BUCKETS } from '../../newsroom/ledger/schemas.js';
import { RoomSlug } from '../../newsroom/common/schemas.js';
import { RoomFilter } from '../../newsroom/search/schemas.js';
import { PublicationStageSchema, ReviewStatusSchema, StoryStateSchema } from '../../newsroom/stories/schemas.js';

/**
 * Query strings of the reader site's pages. Like the JSON reads they refuse unknown parameters (the read
 * cache keys pages by the validated query). A search form sends its empty fields as `name=`: those are
 * accepted and mean "any".
 */
const orEmpty = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Literal('')]));

export const LangQuery = Type.Object({ lang: LangParam }, { additionalProperties: false });

/** Stories or events per page (the JSON routes' bounds). */
const PageLimit = Type.Optional(Type.Integer({ minimum: 1, maximum: 50 }));

export const FeedPageQuery = Type.Object(
  { lang: LangParam, mode: Type.Optional(FeedModeSchema), room: Type.Optional(RoomSlug), cursor: PageCursorParam, limit: PageLimit },
  { additionalProperties: false },
);
export type FeedPageQuery = Static<typeof FeedPageQuery>;

const Version = Type.Integer({ minimum: 1, maximum: 1_000_000 });
export const VersionsPageQuery = Type.Object(
  { lang: LangParam, from: Type.Optional(Version), to: Type.Optional(Version) },
  { additionalProperties: false },
);

export const LedgerPageQuery = Type.Object(
  { lang: LangParam, filters: Type.Optional(StringEnum(LEDGER_BUCKETS as ['agent-review'])), cursor: PageCursorParam, limit: PageLimit },
  { additionalProperties: false },
);

export const SearchPageQuery = Type.Object(
  {
    lang: LangParam,
    q: orEmpty(Type.String({ maxLength: 500, pattern: '^[^\\u0000]*$' })),
    room: orEmpty(RoomFilter),
    state: orEmpty(StoryStateSchema),
    publicationStage: orEmpty(PublicationStageSchema),
    reviewStatus: orEmpty(ReviewStatusSchema),
    cursor: PageCursorParam,
  },
  { additionalProperties: false },
);
export type SearchPageQuery = Static<typeof SearchPageQuery>;

/** A person's profile address: their display name (any case; one that cannot be a name is simply not found). */
export const PersonParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });

/** A bot's profile address: its id. */
export const BotParams = Type.Object({ botId: Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,200}$' }) }, { additionalProperties: false });
