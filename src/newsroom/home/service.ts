import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import type { Clock } from '../../platform/clock.js';
import { t, type Lang } from '../../platform/i18n/index.js';
import type { FeedService } from '../feed/service.js';
import type { Parameters } from '../../governance/parameters/parameters.js';
import { presentLabeledLedgerEvent } from '../ledger/presenter.js';
import type { LedgerService } from '../ledger/service.js';
import { presentCard } from '../stories/presenter.js';
import { moduleHeading, type ModuleId } from './module-directory.js';
import * as repository from './repository.js';
import type { HomeResponse, LedgerModuleResponse, RewardWindowModuleResponse, StoryModuleResponse } from './schemas.js';

const HOUR_MS = 3_600_000;
/** Items of a module read; the home page shows the first few of each. */
export const MODULE_ITEMS = 20;
export const HOME_ITEMS = 5;

export interface HomeDeps {
  db: Db<NewsroomTables>;
  feed: Pick<FeedService, 'firstRows'>;
  ledger: Pick<LedgerService, 'latestRows'>;
  clock: Clock;
  parameters: () => Promise<Parameters>;
}

/** What one read shares between its modules: language, the time it is built at, the window length. */
interface ReadContext {
  lang: Lang;
  now: Date;
  rewardWindowHours: number;
}

/** The home page and the four newsroom modules; every label comes from the catalogues in `lang`. */
export function createHomeService(deps: HomeDeps) {
  const { db, feed, ledger, clock, parameters } = deps;

  async function context(lang: Lang): Promise<ReadContext> {
    return { lang, now: new Date(clock.now()), rewardWindowHours: (await parameters()).rewardWindowHours };
  }

  const header = (id: ModuleId, c: ReadContext) => ({
    ...moduleHeading(id, c.lang, c.rewardWindowHours),
    lang: c.lang,
    generatedAt: c.now.toISOString(),
  });

  const builders = {
    async developing(c: ReadContext, limit: number): Promise<StoryModuleResponse> {
      const rows = await feed.firstRows('developing', limit);
      return { ...header('developing', c), items: rows.map((row) => presentCard(row, c.lang)) };
    },

    async underReview(c: ReadContext, limit: number): Promise<StoryModuleResponse> {
      const rows = await repository.underReview(db, limit);
      return { ...header('under-review', c), items: rows.map((row) => presentCard(row, c.lang)) };
    },

    async ledger(c: ReadContext, limit: number): Promise<LedgerModuleResponse> {
      const rows = await ledger.latestRows(limit, c.now);
      return { ...header('ledger', c), items: rows.map((row) => presentLabeledLedgerEvent(row, c.lang)) };
    },

    async rewardWindow(c: ReadContext, limit: number): Promise<RewardWindowModuleResponse> {
      const [rows, openCount] = await Promise.all([
        repository.openRewardWindows(db, c.now, limit),
        repository.openRewardWindowCount(db, c.now),
      ]);
      return {
        ...header('reward-window', c),
        rewardWindowHours: c.rewardWindowHours,
        openCount,
        items: rows.map((row) => {
          const closes = row.reward_window_ends_at ?? c.now;
          const hoursLeft = Math.max(0, Math.round((closes.getTime() - c.now.getTime()) / (HOUR_MS / 10)) / 10);
          return { ...presentCard(row, c.lang), closesAt: closes.toISOString(), hoursLeft };
        }),
      };
    },
  };

  return {
    developing: async (lang: Lang) => builders.developing(await context(lang), MODULE_ITEMS),
    underReview: async (lang: Lang) => builders.underReview(await context(lang), MODULE_ITEMS),
    ledger: async (lang: Lang) => builders.ledger(await context(lang), MODULE_ITEMS),
    rewardWindow: async (lang: Lang) => builders.rewardWindow(await context(lang), MODULE_ITEMS),

    /** The home page: the trending hero and the first items of each module, built at one instant. */
    async home(lang: Lang): Promise<HomeResponse> {
      const c = await context(lang);
      const [trending, developing, underReview, events, rewardWindow] = await Promise.all([
        feed.firstRows('trending', HOME_ITEMS),
        builders.developing(c, HOME_ITEMS),
        builders.underReview(c, HOME_ITEMS),
        builders.ledger(c, HOME_ITEMS),
        builders.rewardWindow(c, HOME_ITEMS),
      ]);
      const home = moduleHeading('home', lang, c.rewardWindowHours);
      return {
        lang,
        generatedAt: c.now.toISOString(),
        title: home.title,
        description: home.description,
        hero: {
          title: t(lang, 'home.hero.title'),
          description: t(lang, 'home.hero.description'),
          href: '/v1/feed?mode=trending',
          items: trending.map((row) => presentCard(row, lang)),
        },
        sections: { developing, underReview, ledger: events, rewardWindow },
      };
    },
  };
}
