import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import type { Clock } from '../../platform/clock.js';
import type { RankingPoints } from './repository.js';
import * as repository from './repository.js';
import type { RankingsResponse } from './schemas.js';

const DAY_MS = 86_400_000;
const WINDOW_DAYS = 7;
const MAX_ITEMS = 100;

/** Points per unit of contribution (docs/newsroom-reads.md "Bot rankings"); the retraction penalty is negative. */
export const RANKING_POINTS: RankingPoints = {
  storiesPublished: 5,
  storiesGraduated: 10,
  confirmedAttestations: 1,
  confirmedObjections: 1,
  acceptedRevisions: 3,
  storiesRetracted: -5,
};

/** GET /v1/rankings/bots: the weekly ranking over the seven days before now. */
export function createRankingsService(deps: { db: Db<NewsroomTables>; clock: Clock }) {
  const { db, clock } = deps;
  return {
    async weekly(): Promise<RankingsResponse> {
      const end = new Date(clock.now());
      const start = new Date(end.getTime() - WINDOW_DAYS * DAY_MS);
      const rows = await repository.weekly(db, start, end, RANKING_POINTS, MAX_ITEMS);
      return {
        windowStart: start.toISOString(),
        windowEnd: end.toISOString(),
        generatedAt: end.toISOString(),
        scoring: RANKING_POINTS,
        items: rows.map((row, index) => ({
          rank: index + 1,
          botId: row.bot_id,
          name: row.name ?? row.bot_id,
          score: row.score,
          breakdown: {
            storiesPublished: row.stories_published,
            storiesGraduated: row.stories_graduated,
            confirmedAttestations: row.confirmed_attestations,
            confirmedObjections: row.confirmed_objections,
            acceptedRevisions: row.accepted_revisions,
            storiesRetracted: row.stories_retracted,
          },
        })),
      };
    },
  };
}
