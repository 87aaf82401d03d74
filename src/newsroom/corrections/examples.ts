/** Examples of corrections and retractions for the OpenAPI document (checked by test/platform/openapi-words.test.ts). */

export const correctionExample = {
  id: 'cor_Dn5Hs1Jw7Kp3Xe9B',
  storyId: 'st_Lp2sD8fG4hJk6ZxC',
  kind: 'CORRECTION',
  version: 3,
  packetHash: '7d1c4a8e2f5b9063a7e1d4c8b2f6a9e3c5d0b7f4a1e8c2d6b9f3a5e0c7d4b1a68',
  note: 'The transit figure is 41.2 million, not 44.2 million: a typing error in the first version.',
  reviewStatus: 'CLEAR',
  ledgerEventId: 'le_Pc7Ua3Wd9Zg1Yh6F',
  webhookEventId: 'whe_Gk2Lz6Mx0Nc4Vb8Q',
  createdBy: 'h_4b7e2c9d1a0f83e6c5b2d7a9f1e04c38',
  createdAt: '2026-05-13T08:15:40.921Z',
};

export const correctStoryExample = {
  actorId: 'admin-ops-3',
  verified: true,
  linkedHumanId: 'h_4b7e2c9d1a0f83e6c5b2d7a9f1e04c38',
  changes: { title: 'Council budget: transit figure corrected to 41.2 million' },
  note: 'The transit figure is 41.2 million, not 44.2 million: a typing error in the first version.',
};

export const retractStoryExample = {
  actorId: 'admin-ops-3',
  verified: true,
  linkedHumanId: 'h_4b7e2c9d1a0f83e6c5b2d7a9f1e04c38',
  reason: 'The only source, a leaked memo, was shown to be fabricated.',
};
