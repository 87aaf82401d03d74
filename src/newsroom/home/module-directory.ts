import { t, type Lang, type MessageKey } from '../../platform/i18n/index.js';

/** The newsroom's modules in a fixed order: home lists them, and assistant orientation names them. */
export const MODULES = [
  { id: 'home', href: '/v1/home', title: 'module.home.title', description: 'module.home.description' },
  { id: 'feed', href: '/v1/feed', title: 'module.feed.title', description: 'module.feed.description' },
  { id: 'search', href: '/v1/search', title: 'module.search.title', description: 'module.search.description' },
  { id: 'developing', href: '/v1/modules/developing', title: 'module.developing.title', description: 'module.developing.description' },
  {
    id: 'under-review',
    href: '/v1/modules/under-review',
    title: 'module.underReview.title',
    description: 'module.underReview.description',
  },
  { id: 'ledger', href: '/v1/modules/ledger', title: 'module.ledger.title', description: 'module.ledger.description' },
  {
    id: 'reward-window',
    href: '/v1/modules/reward-window',
    title: 'module.rewardWindow.title',
    description: 'module.rewardWindow.description',
  },
  { id: 'rankings', href: '/v1/rankings/bots', title: 'module.rankings.title', description: 'module.rankings.description' },
] as const satisfies readonly { id: string; href: string; title: MessageKey; description: MessageKey }[];

export type ModuleId = (typeof MODULES)[number]['id'];

export interface ModuleHeading {
  id: ModuleId;
  title: string;
  description: string;
  href: string;
}

/** The localized heading of a module; `rewardWindowHours` fills the reward-window description. */
export function moduleHeading(id: ModuleId, lang: Lang, rewardWindowHours: number): ModuleHeading {
  const entry = MODULES.find((m) => m.id === id)!;
  return { id, title: t(lang, entry.title), description: t(lang, entry.description, { hours: rewardWindowHours }), href: entry.href };
}

export function allModuleHeadings(lang: Lang, rewardWindowHours: number): ModuleHeading[] {
  return MODULES.map((m) => moduleHeading(m.id, lang, rewardWindowHours));
}
