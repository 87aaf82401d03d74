import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import type { Clock } from '../../platform/clock.js';
import { pageOf, type CursorCodec } from '../../platform/cursor.js';
import type { LedgerBucket } from '../rows.js';
import { presentLedgerEvent } from './presenter.js';
import * as repository from './repository.js';
import { LEDGER_BUCKETS, type LedgerEventsQuery, type LedgerEventsResponse } from './schemas.js';

const DEFAULT_LIMIT = 20;
const CURSOR_KIND = 'ledger:events';

/**
 * The buckets a `filters` value names (its syntax is checked by the schema), or null for all of them:
 * absent, empty, or naming every bucket.
 */
export function parseBuckets(filters: string | undefined): LedgerBucket[] | null {
  if (!filters) return null;
  const named = new Set(filters.split(','));
  const buckets = LEDGER_BUCKETS.filter((b) => named.has(b));
  return buckets.length === LEDGER_BUCKETS.length ? null : buckets;
}

export type LedgerService = ReturnType<typeof createLedgerService>;

/** GET /v1/ledger/events: corrections, retractions, challenges and updates, newest first. */
export function createLedgerService(deps: { db: Db<NewsroomTables>; clock: Clock; cursors: CursorCodec }) {
  const { db, clock, cursors } = deps;
  return {
    /** The latest ledger events of visible stories as rows (the home page's ledger module presents them). */
    latestRows: (limit: number, now: Date) => repository.page(db, null, null, limit, now),

    async events(query: LedgerEventsQuery): Promise<LedgerEventsResponse> {
      const limit = query.limit ?? DEFAULT_LIMIT;
      const before = query.cursor ? (cursors.decode(CURSOR_KIND, query.cursor, ['int8'])[0] as string) : null;
      const rows = await repository.page(db, parseBuckets(query.filters), before, limit + 1, new Date(clock.now()));
      const { items, nextCursor } = pageOf(rows, limit, (last) => cursors.encode(CURSOR_KIND, [last.seq]));
      return { events: items.map(presentLedgerEvent), ...(nextCursor ? { nextCursor } : {}) };
    },
  };
}
