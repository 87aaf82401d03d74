import type { HumanActor } from '../../platform/auth/types.js';
import { pageOf, type CursorCodec } from '../../platform/cursor.js';
import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { t } from '../../platform/i18n/index.js';
import { presentCard } from '../stories/presenter.js';
import { readerTrendingPage } from './reader-repository.js';
import { FEED_ORDERS } from './repository.js';
import * as repository from './repository.js';
import type { FeedMode, FeedQuery, FeedResponse } from './schemas.js';
import type { RawBuilder } from 'kysely';

const DEFAULT_LIMIT = 20;

export type FeedService = ReturnType<typeof createFeedService>;

/** The cursor kind of a feed mode: a cursor of one mode is refused by another (400 INVALID_CURSOR). */
const cursorKind = (mode: FeedMode) => `feed:${mode}`;

/** The cursor kind of a signed reader's trending feed: its order is the reader's own. */
const READER_KIND = 'feed:trending:reader';

/**
 * What a signed reader's trending feed needs of readers: the reader's followed topics, whether their preferences
 * keep a history, and what they read, as SQL the feed's one statement embeds (each an uncorrelated subquery on
 * readers' tables, so the page stays one statement). Declared here, wired in composition.ts to
 * readers/users/feed-interests-repository.ts.
 */
export interface ReaderInterests {
  /** `(subquery)` of the names of the rooms the reader follows. */
  followedRooms(actorId: string): RawBuilder<unknown>;
  /** `(subquery)` of the reader's followed tags as one OR-ed tsquery of phrases (null when none has a searchable word). */
  followedTags(actorId: string): RawBuilder<unknown>;
  /** Whether the reader's preferences keep a history (personalization on). */
  historyKept(actorId: string): RawBuilder<boolean>;
  /** `(subquery)` of the ids of the stories the reader has read. */
  readStories(actorId: string): RawBuilder<unknown>;
}

/**
 * The public feed: published, visible, not retracted stories in one of four orders, keyset-paginated. With
 * a signed reader, the trending mode ranks that reader's followed topics and unread stories first.
 */
export function createFeedService(deps: { cursors: CursorCodec; db: Db<NewsroomTables>; interests: ReaderInterests }) {
  const { cursors, db, interests } = deps;

  async function readerTrending(reader: HumanActor, query: FeedQuery, limit: number): Promise<FeedResponse> {
    const lang = query.lang ?? 'en';
    let after: { bucket: number; sort: number; id: string } | undefined;
    if (query.cursor) {
      const [bucket, sort, id] = cursors.decode(READER_KIND, query.cursor, ['integer', 'number', 'string']);
      after = { bucket: bucket as number, sort: sort as number, id: id as string };
    }
    const rows = await readerTrendingPage(db, interests, { actorId: reader.actorId, room: query.room, after, limit: limit + 1 });
    const { items, nextCursor } = pageOf(rows, limit, (last) => cursors.encode(READER_KIND, [last.bucket, last.sort_value, last.id]));
    return {
      mode: 'trending',
      modeLabel: t(lang, 'feedMode.trending'),
      items: items.map((row) => presentCard(row, lang)),
      ...(nextCursor ? { nextCursor } : {}),
      personalized: true,
    };
  }

  return {
    /** Rooms of listed stories, the busiest first (at most `limit`): the site's room links. */
    listedRooms: (limit: number) => repository.rooms(db, limit),
    /** A bot's newest listed stories (at most `limit`): its profile page. */
    storiesOfBot: (botId: string, limit: number) => repository.listedStoriesOfBot(db, botId, limit),
    /** How many listed stories there are (the sitemap's size). */
    listedStoryCount: () => repository.listedStoryCount(db),
    /** One page of listed stories by id, for the sitemap. */
    listedStoriesById: (offset: number, limit: number) => repository.listedStoriesById(db, offset, limit),
    /** The first rows of a feed mode, unpaged (the home page presents them in its hero and modules). */
    firstRows: (mode: FeedMode, limit: number) => repository.page(db, { mode, limit }),

    async feed(query: FeedQuery, reader?: HumanActor): Promise<FeedResponse> {
      const mode = query.mode ?? 'trending';
      const lang = query.lang ?? 'en';
      const limit = query.limit ?? DEFAULT_LIMIT;
      if (reader && mode === 'trending') return readerTrending(reader, query, limit);
      let after: { sort: number | string; id: string } | undefined;
      if (query.cursor) {
        const [sort, id] = cursors.decode(cursorKind(mode), query.cursor, [FEED_ORDERS[mode].field, 'string']);
        after = { sort: sort!, id: id as string };
      }
      const rows = await repository.page(db, { mode, room: query.room, after, limit: limit + 1 });
      const { items, nextCursor } = pageOf(rows, limit, (last) => cursors.encode(cursorKind(mode), [last.sort_value, last.id]));
      return {
        mode,
        modeLabel: t(lang, `feedMode.${mode}`),
        items: items.map((row) => presentCard(row, lang)),
        ...(nextCursor ? { nextCursor } : {}),
      };
    },
  };
}
