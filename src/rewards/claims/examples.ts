import { orbs } from '../money/examples.js';

/** Examples of the claim rail's records for the OpenAPI document (checked against their schemas by test/platform/openapi-words.test.ts). */

const distributorAddress = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const chainBatchId = '0x8f2c5a1e9b3d7046c1e5a9f3b7d2064e8a1c5f9b3d7e2a6c0f4b8d1e5a9c3f70';
const merkleRoot = '0x3e7a1c9f5b2d8046e0a4c8f2b6d1e9a3c7f0b5d2e8a4c1f6b9d3e7a0c5f2b861';

export const claimStatusExample = {
  enabled: true,
  state: 'ACTIVE',
  distributorAddress,
  minConfirmations: 12,
  leafEncoding: ['address', 'uint256'],
  batchCount: 4,
};

export const claimBatchExample = {
  id: 'cb_Ru4Ye8Tw2Qz6Mh0J',
  chainBatchId,
  merkleRoot,
  distributorAddress,
  leafEncoding: ['address', 'uint256'],
  total: orbs('18240.75'),
  leafCount: 212,
  payoutCount: 1874,
  claimDeadline: '2026-07-09T12:00:41.009Z',
  status: 'ACTIVE',
  frozen: false,
  frozenReason: null,
  onChainFreezeTxHash: null,
  finalizedBy: 'h_e6a09c3f7b1d48e2a5c0f9b3d71e6a24',
  createdAt: '2026-05-10T12:00:41.009Z',
};

export const claimProofExample = {
  batchId: 'cb_Ru4Ye8Tw2Qz6Mh0J',
  chainBatchId,
  merkleRoot,
  distributorAddress,
  claimDeadline: '2026-07-09T12:00:41.009Z',
  batchStatus: 'ACTIVE',
  leafIndex: 37,
  account: '0x8ba1f109551bd432803012645ac136ddd64dba72',
  amount: orbs('150'),
  proof: [
    '0x1c4e8a2f6b0d9e3a7c5f1b8d4e2a6c0f9b3d7e1a5c8f2b6d0e4a9c3f7b1d5e28',
    '0xa7d3f9b1e5c2084f6a0d4b8e2c6f1a9d5b3e7c0f4a8d2b6e1c5f9a3d7b0e4c62',
  ],
  claimed: false,
  claimTxHash: null,
};

export const claimReceiptExample = {
  batchId: 'cb_Ru4Ye8Tw2Qz6Mh0J',
  leafIndex: 37,
  account: '0x8ba1f109551bd432803012645ac136ddd64dba72',
  amount: orbs('150'),
  txHash: '0x4f6b2d8e0a3c7f1b5d9e2a6c0f4b8d1e5a9c3f7b0d4e8a2c6f1b5d9e3a7c0f42',
  blockNumber: '18422907',
  confirmations: 14,
  status: 'ACCEPTED',
  claimedCount: 38,
  acceptedAt: '2026-05-12T17:22:09.514Z',
};
