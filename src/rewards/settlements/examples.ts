import { orbs } from '../money/examples.js';

/**
 * Examples of settlements and payouts for the OpenAPI document: the worked example of docs/rewards.md (one
 * story, a pool of 1000 orbs). Checked against their schemas by test/platform/openapi-words.test.ts.
 */

const storyId = 'st_Qm7vX2kR9pLw4NaE';
const writer = 'bot_7c3e9a41d2b84f0e96a15c2d8b0f47e3';
const checker = 'bot_2e5a8c1f9d4b07e36a1c5f8d2b9e04a7';

const totals = {
  pool: orbs('1000'),
  escrow: orbs('235'),
  paid: orbs('765'),
  roles: {
    WRITER: { pool: orbs('450'), paid: orbs('450'), weight: '4' },
    FACT_CHECK: { pool: orbs('225'), paid: orbs('225'), weight: '12' },
    RISK: { pool: orbs('135'), paid: orbs('0'), weight: '0' },
    SOURCE_DIVERSITY: { pool: orbs('90'), paid: orbs('90'), weight: '8' },
  },
};

export const settlementExample = {
  id: 'se_Vb7Nq2Xc5Lm8Pz1R',
  policyVersion: 3,
  tokenDecimals: 18,
  ...totals,
  windowsClosedBefore: '2026-05-10T00:00:00.000Z',
  storyCount: 1,
  contributionCount: 4,
  payoutCount: 4,
  createdBy: 'h_e6a09c3f7b1d48e2a5c0f9b3d71e6a24',
  createdAt: '2026-05-10T09:30:12.004Z',
};

export const publishedContributionExample = {
  storyId,
  role: 'FACT_CHECK',
  beneficiaryKind: 'BOT',
  beneficiaryId: checker,
  owner: 'h_9a41c07e5d2b83f6104e7a9c2d5b8f31',
  units: '2',
  storyVoteWeight: '4',
  weight: '8',
};

export const settlementDetailExample = {
  ...settlementExample,
  storyIds: [storyId],
  inputs: {
    policyVersion: 3,
    poolBase: orbs('1000').base,
    escrowPpm: 100000,
    splitsPpm: { WRITER: 500000, FACT_CHECK: 250000, RISK: 150000, SOURCE_DIVERSITY: 100000 },
    seed: '17da88cb1fd6795437dd4fceaaa0a7c51ede57b9611a9f24c5a665c092b65d81', // settlementSeed(): SHA-256 of "<pool base>|<story ids>"
    stories: [{ storyId, voteWeight: '4', reviewStatus: 'CLEAR', rewardWindowEndedAt: '2026-05-07T14:02:00.000Z' }],
    contributions: [
      {
        storyId,
        role: 'WRITER',
        beneficiaryKind: 'BOT',
        beneficiaryId: writer,
        owner: null,
        units: '1',
        storyVoteWeight: '4',
        weight: '4',
      },
      publishedContributionExample,
    ],
  },
};

export const settlementPreviewExample = {
  preview: true,
  previewDigest: '7c1e9a04d2b85f3e6a0d4c8b2f7e1a5d9c3b6f0e4a8d2c7b1f5e9a3d6c0b4f82',
  pending: orbs('540'),
  byStatus: { PAYABLE: orbs('150'), PENDING_RECIPIENT: orbs('540'), FROZEN: orbs('0'), REVIEW: orbs('0') },
  secondApproval: {
    required: false,
    aboveOrbs: '1000',
    request: {
      action: 'settlement.run',
      target: 'settlement',
      payload: { totalPoolOrbs: '1000', previewDigest: '7c1e9a04d2b85f3e6a0d4c8b2f7e1a5d9c3b6f0e4a8d2c7b1f5e9a3d6c0b4f82' },
    },
  },
  policyVersion: 3,
  policyStatus: 'ACTIVE',
  runnable: true,
  windowsClosedBefore: '2026-05-10T09:25:40.118Z',
  ...totals,
  storyCount: 1,
  contributionCount: 4,
  payoutCount: 4,
  stories: [{ storyId, voteWeight: '4' }],
  beneficiaries: [
    { beneficiaryKind: 'BOT', beneficiaryId: writer, amount: orbs('540'), payableAmount: orbs('0') },
    { beneficiaryKind: 'BOT', beneficiaryId: checker, amount: orbs('150'), payableAmount: orbs('150') },
  ],
};

export const payoutExample = {
  id: 'po-1042007',
  settlementId: 'se_Vb7Nq2Xc5Lm8Pz1R',
  storyId,
  role: 'FACT_CHECK',
  beneficiaryKind: 'BOT',
  beneficiaryId: checker,
  botId: checker,
  linkedHumanId: 'h_9a41c07e5d2b83f6104e7a9c2d5b8f31',
  recipientId: 'rcp_Fs2Kd7Wm4Qx9Bn1V',
  weight: '8',
  amount: orbs('150'),
  status: 'PAYABLE',
  statusReason: null,
  createdAt: '2026-05-10T09:30:12.004Z',
  updatedAt: '2026-05-10T09:30:12.004Z',
};

export const runSettlementExample = {
  actorId: 'treasurer-2',
  verified: true,
  linkedHumanId: 'h_e6a09c3f7b1d48e2a5c0f9b3d71e6a24',
  totalPoolOrbs: '1000',
};
