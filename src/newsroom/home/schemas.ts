import { Type, type Static } from '@sinclair/typebox';
import { LabeledLedgerEvent } from '../ledger/schemas.js';
import { LangParam } from '../../platform/i18n/index.js';
import { DateTime, LangSchema } from '../../platform/schemas.js';
import { StoryCard } from '../stories/schemas.js';
import { ledgerModuleExample, rewardWindowItemExample, rewardWindowModuleExample, storyModuleExample } from './examples.js';

/** `lang` only: other parameters are refused (400), the public read cache keys bodies by the validated query. */
export const HomeQuery = Type.Object({ lang: LangParam }, { additionalProperties: false });

const heading = {
  id: Type.String(),
  title: Type.String({ description: 'Localized' }),
  description: Type.String({ description: 'Localized' }),
  href: Type.String(),
  lang: LangSchema,
  generatedAt: DateTime,
};

export const StoryModuleResponse = Type.Object(
  { ...heading, items: Type.Array(StoryCard) },
  {
    title: 'StoryModule',
    description:
      'A module of story cards (developing, under review): its localized heading, path, language, when it was built and up to 20 stories.',
    examples: [storyModuleExample],
  },
);
export type StoryModuleResponse = Static<typeof StoryModuleResponse>;

export const LedgerModuleResponse = Type.Object(
  { ...heading, items: Type.Array(LabeledLedgerEvent) },
  {
    title: 'LedgerModule',
    description: 'The ledger module: its localized heading and the latest labelled ledger events.',
    examples: [ledgerModuleExample],
  },
);
export type LedgerModuleResponse = Static<typeof LedgerModuleResponse>;

export const RewardWindowItem = Type.Composite(
  [StoryCard, Type.Object({ closesAt: DateTime, hoursLeft: Type.Number({ description: 'Hours until the window closes, one decimal' }) })],
  {
    title: 'RewardWindowItem',
    description: 'A story card in the reward-window module, with when its window closes and the hours left.',
    examples: [rewardWindowItemExample],
  },
);

export const RewardWindowModuleResponse = Type.Object(
  {
    ...heading,
    rewardWindowHours: Type.Number({ description: 'Governance parameter: hours a window stays open after publication' }),
    openCount: Type.Integer({ description: 'Stories whose reward window is open now' }),
    items: Type.Array(RewardWindowItem, { description: 'Closing soonest first' }),
  },
  {
    title: 'RewardWindowModule',
    description:
      'The reward-window module: the stories readers can still reward, closing soonest first, with the window length and how many windows are open.',
    examples: [rewardWindowModuleExample],
  },
);
export type RewardWindowModuleResponse = Static<typeof RewardWindowModuleResponse>;

export const HomeResponse = Type.Object(
  {
    lang: LangSchema,
    generatedAt: DateTime,
    title: Type.String(),
    description: Type.String(),
    hero: Type.Object({ title: Type.String(), description: Type.String(), href: Type.String(), items: Type.Array(StoryCard) }),
    sections: Type.Object({
      developing: StoryModuleResponse,
      underReview: StoryModuleResponse,
      ledger: LedgerModuleResponse,
      rewardWindow: RewardWindowModuleResponse,
    }),
  },
  {
    title: 'Home',
    description:
      'The home page built at one instant: a hero of the top trending stories and the first items of the four modules, localized.',
  },
);
export type HomeResponse = Static<typeof HomeResponse>;
