import { storyId } from '../common/examples.js';

/** Examples of flags for the OpenAPI document (checked against their schemas by test/platform/openapi-words.test.ts). */

export const flagExample = {
  id: 'fl_Hy7Gt3Rd5Es9Wa1Q',
  actorId: 'reader-1042',
  verified: true,
  severity: 'MEDIUM',
  claimId: 'cl_9d2a6c0f4e8b1d5a3c7e',
  reason: 'The minutes say the levy funds the first year only; the second year depends on the autumn budget.',
  challenge: false,
  createdAt: '2026-05-13T12:47:20.306Z',
};

export const storyFlagExample = { storyId, verifiedActionId: null, reviewStatus: 'CLEAR', ...flagExample };

export const flagPageExample = { storyId, items: [flagExample] };

export const createFlagExample = {
  actorId: 'reader-1042',
  verified: true,
  linkedHumanId: 'h_2f8c1e7a9b0d4c36e5a1f7b29d8c0e41',
  severity: 'MEDIUM',
  reason: 'The minutes say the levy funds the first year only; the second year depends on the autumn budget.',
  claimId: 'cl_9d2a6c0f4e8b1d5a3c7e',
};
