import { orbs } from '../money/examples.js';
import { payoutExample } from '../settlements/examples.js';

/** Examples of recipients, wallets and the private rewards reads for the OpenAPI document (checked by test/platform/openapi-words.test.ts). */

export const walletExample = {
  address: '0x8ba1f109551bd432803012645ac136ddd64dba72',
  chainId: 480,
  verifiedAt: '2026-05-03T19:06:58.402Z',
};

export const recipientExample = {
  id: 'rcp_Fs2Kd7Wm4Qx9Bn1V',
  linkedHumanId: 'h_9a41c07e5d2b83f6104e7a9c2d5b8f31',
  actorId: 'dev-maria-lopez',
  termsVersion: '2026-11',
  termsAcceptedAt: '2026-05-03T19:01:12.880Z',
  wallet: walletExample,
  frozen: false,
  frozenAt: null,
};

export const walletChallengeExample = {
  challengeId: 'wch_Pn6Bv3Rt9Kc1Wq4Z',
  recipientId: 'rcp_Fs2Kd7Wm4Qx9Bn1V',
  address: '0x8ba1f109551bd432803012645ac136ddd64dba72',
  chainId: 480,
  message: [
    'newsroom.example wants you to sign in with your Ethereum account:',
    '0x8Ba1f109551bD432803012645Ac136ddd64DBA72',
    '',
    'Bind this wallet to payout recipient rcp_Fs2Kd7Wm4Qx9Bn1V of the newsroom rewards.',
    '',
    'URI: https://newsroom.example/v1/rewards/wallets/verify',
    'Version: 1',
    'Chain ID: 480',
    'Nonce: k2Hq8Vz4Tn6Rb1Xw',
    'Issued At: 2026-05-03T19:04:00.000Z',
    'Expiration Time: 2026-05-03T19:09:00.000Z',
    'Request ID: wch_Pn6Bv3Rt9Kc1Wq4Z',
    'Resources:',
    '- urn:newsroom:recipient:rcp_Fs2Kd7Wm4Qx9Bn1V',
  ].join('\n'),
  expiresAt: '2026-05-03T19:09:00.000Z',
};

export const walletVerifiedExample = { ...recipientExample, payoutsReleased: 3 };

export const monetaryEligibilityExample = { eligible: false, reasons: ['WALLET_NOT_VERIFIED'] };

export const eligibilityExample = {
  userId: 'dev-maria-lopez',
  tier: 'L3',
  linkedHumanId: 'h_9a41c07e5d2b83f6104e7a9c2d5b8f31',
  rewardVotes: {
    allowed: true,
    weight: 3,
    weightNote: 'The tier weight applies to a vote that consumes a verified human action reward:<storyId>; else 1',
  },
  monetaryRewards: monetaryEligibilityExample,
  canRegisterRecipient: true,
  terms: { version: '2026-11' },
  recipient: { ...recipientExample, wallet: null },
};

const budget = { day: '2026-05-12', tier: 'L3', limit: 50, used: 7, remaining: 43, resetsAt: '2026-05-13T00:00:00.000Z' };

export const budgetExample = { userId: 'dev-maria-lopez', paidActions: ['reward-vote'], ...budget };

export const dashboardExample = {
  userId: 'dev-maria-lopez',
  eligibility: { eligible: true, reasons: [] },
  recipient: recipientExample,
  budget,
  bots: ['bot_2e5a8c1f9d4b07e36a1c5f8d2b9e04a7'],
  payouts: {
    PAYABLE: { count: 3, amount: orbs('310') },
    PENDING_RECIPIENT: { count: 0, amount: orbs('0') },
    FROZEN: { count: 0, amount: orbs('0') },
    REVIEW: { count: 1, amount: orbs('42.5') },
    total: orbs('352.5'),
  },
  recentPayouts: [payoutExample],
};

export const walletChallengeRequestExample = {
  actorId: 'dev-maria-lopez',
  verified: true,
  linkedHumanId: 'h_9a41c07e5d2b83f6104e7a9c2d5b8f31',
  address: '0x8Ba1f109551bD432803012645Ac136ddd64DBA72',
  chainId: 480,
};
