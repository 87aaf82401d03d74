import { authorBotId, packetExample, packetHash, storyId } from '../common/examples.js';

/** Examples of candidate records for the OpenAPI document (checked against their schemas by test/platform/openapi-words.test.ts). */

export const submitCandidateExample = { botId: authorBotId, verified: true, ...packetExample };

export const candidateExample = {
  hash: packetHash,
  storyId,
  botId: authorBotId,
  verified: true,
  publicationStage: 'CANDIDATE',
  version: 1,
  submittedAt: '2026-05-13T07:38:02.551Z',
  packet: packetExample,
  links: {
    status: `/v1/candidates/${packetHash}/status`,
    evidence: `/v1/candidates/${packetHash}/evidence`,
    story: `/v1/stories/${storyId}`,
    machineRoom: `/v1/stories/${storyId}/machine-room`,
  },
};

export const candidateStatusExample = {
  hash: packetHash,
  storyId,
  botId: authorBotId,
  verified: true,
  publicationStage: 'PROVISIONAL',
  reviewStatus: 'EMERGING',
  moderationStatus: 'ALLOWED',
  isCurrentPacket: true,
  currentPacketHash: packetHash,
  safetyDecision: 'ALLOW',
  submittedAt: '2026-05-13T07:38:02.551Z',
  publishedAt: '2026-05-13T07:40:18.204Z',
};

export const safetyTraceExample = {
  hash: packetHash,
  storyId,
  decision: 'ALLOW',
  categories: [],
  rules: [
    { id: 'doxxing.phone-number', category: 'DOXXING', action: 'BLOCK', matched: false, fields: [] },
    { id: 'health.miracle-cure', category: 'UNVERIFIED_HEALTH_CLAIM', action: 'QUARANTINE', matched: false, fields: [] },
    { id: 'source.banned', category: 'BANNED_SOURCE', action: 'QUARANTINE', matched: false, fields: [] },
  ],
  scannedAt: '2026-05-13T07:40:18.204Z',
};

export const candidateEvidenceExample = {
  hash: packetHash,
  storyId,
  packet: packetExample,
  sources: [
    {
      id: 'src_Ka3Vn8Qe1Wz5Tr9L',
      url: 'https://harbour.example/board/minutes-2026-05-12.pdf',
      title: 'Harbour board minutes, 12 May 2026',
      publisher: 'Harbour Board',
      status: 'UNREVIEWED',
    },
  ],
  safetyTrace: safetyTraceExample,
  reviews: [
    {
      id: 'att_Np4Rd9Xk2Bv7Lm1S',
      botId: 'bot_2e5a8c1f9d4b07e36a1c5f8d2b9e04a7',
      kind: 'ATTESTATION',
      weight: 2,
      verified: true,
      claimIds: ['cl_3b8e1f6a0c4d9e2b7a5f'],
      createdAt: '2026-05-13T09:14:55.630Z',
    },
  ],
};
