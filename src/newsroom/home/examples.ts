import { labeledLedgerEventExample } from '../ledger/examples.js';
import { storyCardExample } from '../stories/examples.js';

/** Examples of the home and module answers for the OpenAPI document (checked by test/platform/openapi-words.test.ts). */

const generatedAt = '2026-05-13T15:10:00.000Z';

export const storyModuleExample = {
  id: 'developing',
  title: 'Developing stories',
  description: 'Provisional stories whose review is emerging, contested or under review, newest first.',
  href: '/v1/modules/developing',
  lang: 'en',
  generatedAt,
  items: [{ ...storyCardExample, reviewStatus: 'EMERGING', labels: { ...storyCardExample.labels, reviewStatus: 'Emerging' } }],
};

export const ledgerModuleExample = {
  id: 'ledger',
  title: 'Ledger',
  description: 'Corrections, retractions, challenges and updates of stories, newest first.',
  href: '/v1/modules/ledger',
  lang: 'en',
  generatedAt,
  items: [labeledLedgerEventExample],
};

export const rewardWindowItemExample = { ...storyCardExample, closesAt: '2026-05-16T07:40:18.204Z', hoursLeft: 64.5 };

export const rewardWindowModuleExample = {
  id: 'reward-window',
  title: 'Reward window',
  description: 'Stories whose reward window is open, closing soonest first. Reward votes count only during the 72 hours after publication.',
  href: '/v1/modules/reward-window',
  lang: 'en',
  generatedAt,
  rewardWindowHours: 72,
  openCount: 18,
  items: [rewardWindowItemExample],
};
