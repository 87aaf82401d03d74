/** Examples of the identity records for the OpenAPI document (checked against their schemas by test/platform/openapi-words.test.ts). */

export const loginChallengeExample = {
  challengeId: 'wch_Tq3vB8nW1xYk6LmZ',
  signal: 'login:wch_Tq3vB8nW1xYk6LmZ',
  signalHash: '0x00c4f1b7a2e93d5068f1c7a4b92e0d3f5a6c81b7e2d49f0a3c5e7b1d8f2a4c60',
  action: 'svc-login',
  expiresAt: '2026-03-14T09:35:00.000Z',
};

export const loginSessionExample = {
  linkedHumanId: 'h_2f8c1e7a9b0d4c36e5a1f7b29d8c0e41',
  tier: 'L3',
  sessionExpiresAt: '2026-03-21T09:31:12.447Z',
};

export const verifiedActionExample = {
  id: 'vha_Ye8Jr2Pq6Nw0ZcTf',
  action: 'reward:st_Qm7vX2kR9pLw4NaE',
  provider: 'world_id',
  linkedHumanId: 'h_2f8c1e7a9b0d4c36e5a1f7b29d8c0e41',
  tier: 'L3',
  sessionExpiresAt: '2026-03-21T10:02:47.115Z',
  createdAt: '2026-03-14T10:02:47.115Z',
};

/** The proof fields as IDKit hands them over (a World ID orb proof). */
const proof = {
  nullifier_hash: '0x1d9b6c2a4f8e03b7c5d1e9a2f6b40c8d3e7a5f1b9c2d6e0a4f8b3c7d1e5a9f20',
  merkle_root: '0x0b3f7d2a9c6e14f58a0d3b7c2e9f6a1d4b8c5e2f7a0d3c6b9e1f4a7d2c5b8e01',
  proof: `0x${'2a7f0c9e1b5d3f84'.repeat(32)}`,
  verification_level: 'orb',
};

export const loginVerifyExample = {
  actorId: 'reader-1042',
  verified: false,
  challengeId: 'wch_Tq3vB8nW1xYk6LmZ',
  ...proof,
};

export const worldIdVerifyExample = {
  actorId: 'reader-1042',
  verified: true,
  linkedHumanId: 'h_2f8c1e7a9b0d4c36e5a1f7b29d8c0e41',
  action: 'reward:st_Qm7vX2kR9pLw4NaE',
  ...proof,
};

export const humanProofVerifyExample = { ...worldIdVerifyExample, provider: 'world_id' };
