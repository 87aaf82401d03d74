import { storyId } from '../common/examples.js';

/** Example of a reward vote for the OpenAPI document (checked against its schema by test/platform/openapi-words.test.ts). */

export const rewardVoteExample = {
  id: 'rv_Lk9Jh4Gf2Ds6Ap8Z',
  storyId,
  actorId: 'reader-1042',
  vote: 'UP',
  weight: 3,
  tier: 'L3',
  verifiedActionId: 'vha_Ye8Jr2Pq6Nw0ZcTf',
  rewardWindowClosesAt: '2026-05-16T07:40:18.204Z',
  createdAt: '2026-05-13T10:02:51.440Z',
};
