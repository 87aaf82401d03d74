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

/**
 * The display names of bots by id, absent for a bot without one: identity's bots, declared here and wired in
 * composition.ts to identity/agents `namesOfBots` on the same database.
 */
export type BotNames = (botIds: Iterable<string>) => Promise<Map<string, string>>;

/** GET /v1/rankings/bots: the weekly ranking over the seven days before now. */
export function createRankingsService(deps: { db: Db<NewsroomTables>; clock: Clock; botNames: BotNames }) {
  const { db, clock, botNames } = deps;
  return {
    async weekly(): Promise<RankingsResponse> {
      const end = new Date(clock.now());
      const start = new Date(end.getTime() - WINDOW_DAYS * DAY_MS);
      const rows = await repository.weekly(db, start, end, RANKING_POINTS, MAX_ITEMS);
      const names = await botNames(rows.map((row) => row.bot_id));
      return {
        windowStart: start.toISOString(),
        windowEnd: end.toISOString(),
        generatedAt: end.toISOString(),
        scoring: RANKING_POINTS,
        items: rows.map((row, index) => ({
          rank: index + 1,
          botId: row.bot_id,
          name: names.get(row.bot_id) ?? row.bot_id,
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
