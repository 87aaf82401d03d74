import { pageOf, type CursorCodec } from '../../platform/cursor.js';
import { t } from '../../platform/i18n/index.js';
import { presentCard } from '../stories/presenter.js';
import { FEED_ORDERS, type FeedRepository } from './repository.js';
import type { FeedMode, FeedQuery, FeedResponse } from './schemas.js';

const DEFAULT_LIMIT = 20;

/** The cursor kind of a feed mode: a cursor of one mode is refused by another (400 INVALID_CURSOR). */
const cursorKind = (mode: FeedMode) => `feed:${mode}`;

/** The public feed: published, visible, not retracted stories in one of four orders, keyset-paginated. */
export function createFeedService(deps: { repository: FeedRepository; cursors: CursorCodec }) {
  const { repository, cursors } = deps;
  return {
    async feed(query: FeedQuery): Promise<FeedResponse> {
      const mode = query.mode ?? 'trending';
      const lang = query.lang ?? 'en';
      const limit = query.limit ?? DEFAULT_LIMIT;
      let after: { sort: number | string; id: string } | undefined;
      if (query.cursor) {
        const [sort, id] = cursors.decode(cursorKind(mode), query.cursor, [FEED_ORDERS[mode].field, 'string']);
        after = { sort: sort!, id: id as string };
      }
      const rows = await repository.page({ mode, room: query.room, after, limit: limit + 1 });
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
