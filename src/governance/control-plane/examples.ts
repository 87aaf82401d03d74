/** Examples of the control-plane records for the OpenAPI document (checked against their schemas by test/platform/openapi-words.test.ts). */

const payload = { overlay: { 'consensus.minAttestations': 6, 'consensus.graduationMinAttestations': 10, 'revision.acceptVotes': 4 } };

export const controlPlaneRequestExample = {
  id: 'cpr_Xw5Ma9Qe2Tn7Rb3K',
  action: 'governance.emergency.apply',
  target: 'emergency',
  payload,
  payloadHash: 'd2a84f4b8b6500b1e0a7a5e36fd4c1a9f2e0c6b3d8a1f7e4c9b2d5a0e3f6c178',
  reason: 'Health signals tripped: flagSurge: 46 flags in the last hour against 15 required',
  status: 'EXECUTED',
  requestedBy: 'h_4b7e2c9d1a0f83e6c5b2d7a9f1e04c38',
  approvalsRequired: 2,
  approvalCount: 2,
  approvals: [
    { approver: 'h_c81f3a6e2d9b04f7a5e1c8d3b6f2a097', approvedAt: '2026-05-06T22:19:40.115Z' },
    { approver: 'h_07d2b9e4a1c63f58e0b7d4a2c9f16e35', approvedAt: '2026-05-06T22:26:03.548Z' },
  ],
  createdAt: '2026-05-06T22:11:52.260Z',
  executedAt: '2026-05-06T22:26:03.548Z',
  consumedAt: null,
  consumedBy: null,
  cancelledAt: null,
  cancelledBy: null,
  cancelReason: null,
};

export const createControlPlaneRequestExample = {
  actorId: 'admin-ops-3',
  verified: true,
  linkedHumanId: 'h_4b7e2c9d1a0f83e6c5b2d7a9f1e04c38',
  action: 'governance.emergency.apply',
  target: 'emergency',
  payload,
  reason: 'Health signals tripped: flagSurge: 46 flags in the last hour against 15 required',
};

export const approveControlPlaneRequestExample = {
  actorId: 'night-editor',
  verified: true,
  linkedHumanId: 'h_c81f3a6e2d9b04f7a5e1c8d3b6f2a097',
  nullifier_hash: '0x3f8a2d6c0e4b9f17a5c3e8d2b6f0a4c9e1d7b3f5a8c2e6d0b4f9a3c7e1d5b802',
  merkle_root: '0x0b3f7d2a9c6e14f58a0d3b7c2e9f6a1d4b8c5e2f7a0d3c6b9e1f4a7d2c5b8e01',
  proof: `0x${'5d2a8f0c7e3b9164'.repeat(32)}`,
  verification_level: 'orb',
  action: 'control_plane_approve:cpr_Xw5Ma9Qe2Tn7Rb3K',
};
