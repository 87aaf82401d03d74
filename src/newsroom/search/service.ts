import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { createHash } from 'node:crypto';
import { pageOf, type CursorCodec } from '../../platform/cursor.js';
import type { Lang } from '../../platform/i18n/index.js';
import { presentCard } from '../stories/presenter.js';
import { splitCjkQuery } from './cjk-query.js';
import { correctableWords, correctedQuery } from './forgiving-query.js';
import type { SearchFilters } from './repository.js';
import * as repository from './repository.js';
import type { SearchQuery, SearchResponse } from './schemas.js';

const DEFAULT_LIMIT = 20;

interface ReviewCaseFilters {
  queue?: string | undefined;
  status?: string | undefined;
  assignedToActorId?: string | undefined;
  targetType?: string | undefined;
}
const REVIEW_CASE_FILTERS = ['queue', 'status', 'assignedToActorId', 'targetType'] as const;

/**
 * A search cursor is bound to the query that issued it (query text, ranking language and story filters),
 * so a cursor replayed against another search is 400 INVALID_CURSOR instead of a silently wrong page.
 */
function cursorKind(order: 'relevance' | 'recent', q: string | undefined, lang: Lang, filters: SearchFilters): string {
  const fingerprint = createHash('sha256')
    .update(
      JSON.stringify([
        q ?? null,
        q ? lang : null,
        filters.room ?? null,
        filters.state ?? null,
        filters.publicationStage ?? null,
        filters.reviewStatus ?? null,
      ]),
    )
    .digest('base64url')
    .slice(0, 16);
  return `search:${order}:${fingerprint}`;
}

/** GET /v1/search: full-text or newest-first search over visible stories, keyset-paginated. */
export function createSearchService(deps: {
  db: Db<NewsroomTables>;
  cursors: CursorCodec;
  /** Fraud review cases matching the review-case filters (src/rewards/review/public-view.ts). */
  reviewCases: (
    filters: ReviewCaseFilters,
    limit: number,
  ) => Promise<SearchResponse['reviewCases'] extends infer R ? (R extends { items: infer I } ? I : never) : never>;
}) {
  const { db, cursors, reviewCases } = deps;

  /**
   * "Did you mean": `q` with each word that no published title holds replaced by the nearest title word, offered
   * only when that query finds a visible story with the same filters (so a suggestion never leads to nothing,
   * and never shows a word of a hidden story by itself).
   */
  async function didYouMean(q: string, lang: Lang, filters: SearchFilters): Promise<string | undefined> {
    const suggested = correctedQuery(q, await repository.nearestWords(db, correctableWords(q), lang));
    if (!suggested) return undefined;
    const { rows } = await repository.ranked(db, suggested, splitCjkQuery(suggested), lang, filters, {}, 1);
    return rows.length > 0 ? suggested : undefined;
  }

  return {
    async search(query: SearchQuery): Promise<SearchResponse> {
      const lang = query.lang ?? 'en';
      const limit = query.limit ?? DEFAULT_LIMIT;
      const q = query.q?.trim() || undefined;
      // room slugs are lowercase: a room filter matches whatever the case it was typed in
      const room = query.room?.trim().toLowerCase();
      const filters: SearchFilters = {
        room,
        state: query.state,
        publicationStage: query.publicationStage,
        reviewStatus: query.reviewStatus,
      };
      const order = q ? 'relevance' : 'recent';
      const kind = cursorKind(order, q, lang, filters);

      let page: { items: SearchResponse['items']; nextCursor?: string; suggestion?: { q: string } };
      if (q) {
        // The cursor carries the last (rank, id) and the rank window's bound, so later pages rank the same window.
        const at = query.cursor ? cursors.decode(kind, query.cursor, ['real', 'string', 'timestamp', 'string']) : undefined;
        const { rows, window } = await repository.ranked(
          db,
          q,
          splitCjkQuery(q),
          lang,
          filters,
          at ? { after: { rank: at[0] as number, id: at[1] as string }, window: { sort: at[2] as string, id: at[3] as string } } : {},
          limit + 1,
        );
        const { items, nextCursor } = pageOf(rows, limit, (last) => cursors.encode(kind, [last.rank, last.id, window!.sort, window!.id]));
        page = { items: items.map((row) => ({ ...presentCard(row, lang), rank: row.rank })), ...(nextCursor ? { nextCursor } : {}) };
        if (items.length === 0 && !at) {
          const suggested = await didYouMean(q, lang, filters);
          if (suggested) page.suggestion = { q: suggested };
        }
      } else {
        const after = query.cursor ? cursors.decode(kind, query.cursor, ['timestamp', 'string']) : undefined;
        const rows = await repository.recent(
          db,
          filters,
          after ? { sort: after[0] as string, id: after[1] as string } : undefined,
          limit + 1,
        );
        const { items, nextCursor } = pageOf(rows, limit, (last) => cursors.encode(kind, [last.sort_value, last.id]));
        page = { items: items.map((row) => presentCard(row, lang)), ...(nextCursor ? { nextCursor } : {}) };
      }

      const echo: SearchResponse['query'] = { lang, limit, order };
      for (const key of ['state', 'publicationStage', 'reviewStatus', ...REVIEW_CASE_FILTERS] as const) {
        if (query[key] !== undefined) Object.assign(echo, { [key]: query[key] });
      }
      if (room !== undefined) echo.room = room;
      if (q) echo.q = q;
      // Review-case filters select the rewards fraud review cases (public view), beside the story results.
      const asksForReviewCases = REVIEW_CASE_FILTERS.some((key) => query[key] !== undefined);
      return {
        ...page,
        query: echo,
        ...(asksForReviewCases
          ? {
              reviewCases: {
                items: await reviewCases(
                  { queue: query.queue, status: query.status, assignedToActorId: query.assignedToActorId, targetType: query.targetType },
                  limit,
                ),
                available: true,
              },
            }
          : {}),
      };
    },
  };
}
