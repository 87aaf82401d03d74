/** Example of the rewards policy for the OpenAPI document (checked against its schema by test/platform/openapi-words.test.ts). */

export const rewardsPolicyExample = {
  version: 3,
  status: 'ACTIVE',
  escrowRate: 0.1,
  roleSplits: { WRITER: 0.5, FACT_CHECK: 0.25, RISK: 0.15, SOURCE_DIVERSITY: 0.1 },
  escrowRatePpm: 100000,
  roleSplitsPpm: { WRITER: 500000, FACT_CHECK: 250000, RISK: 150000, SOURCE_DIVERSITY: 100000 },
  tokenDecimals: 18,
  updatedAt: '2026-04-28T13:45:09.771Z',
};

export const rewardsPolicyUpdateExample = {
  actorId: 'treasurer-2',
  verified: true,
  linkedHumanId: 'h_e6a09c3f7b1d48e2a5c0f9b3d71e6a24',
  roleSplits: { WRITER: '0.45', FACT_CHECK: '0.3', RISK: '0.15', SOURCE_DIVERSITY: '0.1' },
  reason: 'Fact-checking carries more of the work since the election desk opened',
};
