/** Examples of the governance records for the OpenAPI document (checked against their schemas by test/platform/openapi-words.test.ts). */

const admin = 'h_4b7e2c9d1a0f83e6c5b2d7a9f1e04c38';
const ratifier = 'h_c81f3a6e2d9b04f7a5e1c8d3b6f2a097';

export const governanceProposalExample = {
  id: 'gp_Hk4rT9wQ2mXa7LcN',
  title: 'Raise the CLEAR threshold for the election weeks',
  rationale:
    'Three coordinated attestation bursts on regional election stories last month: asking for four attestation weights before CLEAR until the count is certified.',
  changes: { 'consensus.minAttestations': 4 },
  status: 'RATIFIED',
  createdBy: admin,
  createdAt: '2026-05-04T09:12:44.310Z',
  decidedBy: ratifier,
  decidedAt: '2026-05-04T15:40:02.871Z',
  activatedBy: null,
  activatedAt: null,
  activationRequestId: null,
  supersededBy: null,
  supersededAt: null,
};

export const healthSignalExample = {
  name: 'flagSurge',
  available: true,
  tripped: true,
  lastHour: 46,
  previous24Hours: 120,
  previousHourlyAverage: 5,
  threshold: {
    ratio: 3,
    minimum: 10,
    required: 15,
    parameters: ['emergency.flagSurgeRatio', 'emergency.flagSurgeMinFlags'],
  },
};

const overlay = { 'consensus.minAttestations': 6, 'consensus.graduationMinAttestations': 10, 'revision.acceptVotes': 4 };

export const emergencyStateExample = {
  active: true,
  id: 'em_Zp3Wq8Lk1Vn6Xr0T',
  overlay,
  signals: [healthSignalExample],
  activatedAt: '2026-05-06T22:05:13.402Z',
  activatedBy: admin,
  activationRequestId: null,
  lastClearedAt: '2026-04-19T07:30:00.000Z',
};

export const governanceStateExample = {
  parameters: [
    {
      name: 'consensus.minAttestations',
      description: 'Attestation weight a packet needs before its review status can be CLEAR',
      value: 6,
      baseValue: 3,
      default: 3,
      range: { min: 1, max: 1000, integer: true },
      updatedByProposalId: null,
      updatedAt: null,
      emergencyOverride: true,
    },
    {
      name: 'rewardWindowHours',
      description: "Hours a story's reward window stays open after it is published",
      value: 96,
      baseValue: 96,
      default: 72,
      range: { min: 1, max: 8760, integer: true },
      updatedByProposalId: 'gp_B2nM8sQ4vT1yW6kE',
      updatedAt: '2026-04-02T11:00:31.552Z',
      emergencyOverride: false,
    },
  ],
  emergency: emergencyStateExample,
  openProposals: [governanceProposalExample],
  controlPlane: { explicitEnabled: false, approvalMin: 2, requesterCannotApprove: true },
};

export const proposalActivationExample = {
  proposal: {
    ...governanceProposalExample,
    status: 'ACTIVE',
    activatedBy: admin,
    activatedAt: '2026-05-05T08:01:19.006Z',
  },
  applied: [{ name: 'consensus.minAttestations', from: 3, to: 4 }],
  superseded: ['gp_Rf6Yc2Jx9Dm4Ua1S'],
  controlPlaneRequestId: null,
};

export const recommendedActionExample = {
  action: 'governance.emergency.apply',
  target: 'emergency',
  payload: { overlay },
  reason: 'Health signals tripped: flagSurge: 46 flags in the last hour against 15 required',
};

export const governanceEvaluationExample = {
  evaluatedAt: '2026-05-06T22:05:13.402Z',
  explicitControlPlane: false,
  signals: [healthSignalExample],
  tripped: ['flagSurge'],
  mutatingApplied: true,
  applied: { emergencyId: 'em_Zp3Wq8Lk1Vn6Xr0T', overlay, controlPlaneRequestId: null },
  recommendedControlPlaneActions: [],
  emergency: emergencyStateExample,
};

export const emergencyClearedExample = {
  cleared: {
    id: 'em_Zp3Wq8Lk1Vn6Xr0T',
    overlay,
    activatedAt: '2026-05-06T22:05:13.402Z',
    clearedAt: '2026-05-07T10:48:27.930Z',
    clearedBy: admin,
    reason: 'Flag volume back to the usual hourly average since 06:00',
  },
  controlPlaneRequestId: null,
  emergency: {
    active: false,
    id: null,
    overlay: {},
    signals: [],
    activatedAt: null,
    activatedBy: null,
    activationRequestId: null,
    lastClearedAt: '2026-05-07T10:48:27.930Z',
  },
};

export const governanceProposalRequestExample = {
  actorId: 'admin-ops-3',
  verified: true,
  linkedHumanId: admin,
  title: 'Raise the CLEAR threshold for the election weeks',
  rationale:
    'Three coordinated attestation bursts on regional election stories last month: asking for four attestation weights before CLEAR until the count is certified.',
  changes: { 'consensus.minAttestations': 4 },
};

/** The proof fields of a World ID proof, as IDKit hands them over. */
const proof = {
  nullifier_hash: '0x2c7e1a9f4b8d03c6e5a2f7b1d9c4e08a3f6b2d7c1e5a9f4b8d3c6e0a2f7b1d95',
  merkle_root: '0x0b3f7d2a9c6e14f58a0d3b7c2e9f6a1d4b8c5e2f7a0d3c6b9e1f4a7d2c5b8e01',
  proof: `0x${'9e4b1f7a3c0d6e28'.repeat(32)}`,
  verification_level: 'orb',
};

export const ratifyProposalExample = {
  actorId: 'editor-in-chief',
  verified: true,
  linkedHumanId: ratifier,
  provider: 'world_id',
  ...proof,
  action: 'governance_ratify:gp_Hk4rT9wQ2mXa7LcN',
  decision: 'RATIFY',
};
