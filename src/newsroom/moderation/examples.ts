/** Examples of moderation records for the OpenAPI document (checked against their schemas by test/platform/openapi-words.test.ts). */

const admin = 'h_4b7e2c9d1a0f83e6c5b2d7a9f1e04c38';

export const traceCategoryExample = { category: 'UNVERIFIED_HEALTH_CLAIM', action: 'QUARANTINE', hardBlock: false };

export const quarantineItemExample = {
  id: 'qi_Mv8Bx2Nc6Zl4Kj0H',
  scopeType: 'story',
  scopeId: 'st_Ew4Rt7Yu1Io3Pa9S',
  status: 'OPEN',
  createdAt: '2026-05-13T09:02:11.380Z',
  hardBlock: false,
  story: {
    id: 'st_Ew4Rt7Yu1Io3Pa9S',
    title: 'Clinic says seaweed tonic cures diabetes in weeks',
    publicationStage: 'CANDIDATE',
    moderationStatus: 'QUARANTINED',
    packetHash: 'e2b7d4a9c1f6083e5a2d9b7c4f1e8a3d6b0c5f2e9a7d4b1c8e3f6a0d5b2c9e74',
  },
  trace: {
    id: 'scan_Rq1Ws5Ed9Fv3Tg7Y',
    packetHash: 'e2b7d4a9c1f6083e5a2d9b7c4f1e8a3d6b0c5f2e9a7d4b1c8e3f6a0d5b2c9e74',
    decision: 'QUARANTINE',
    categories: [traceCategoryExample],
    rules: [
      { id: 'health.miracle-cure', category: 'UNVERIFIED_HEALTH_CLAIM', action: 'QUARANTINE', matched: true, fields: ['title', 'summary'] },
    ],
    scannedAt: '2026-05-13T09:02:11.380Z',
  },
  decisions: [],
};

export const legalHoldExample = {
  id: 'lh_Ub3Nx7Lq1Ke5Rw9T',
  storyId: 'st_Lp2sD8fG4hJk6ZxC',
  status: 'ACTIVE',
  reason: 'Preservation order: the council budget story and its versions are evidence in a defamation claim',
  caseReference: 'County Court, claim CC-2026-0418',
  placedBy: admin,
  placedAt: '2026-05-12T16:30:05.118Z',
  releasedBy: null,
  releasedAt: null,
  releaseReason: null,
};

export const legalHoldRequestExample = {
  actorId: 'admin-ops-3',
  verified: true,
  linkedHumanId: admin,
  action: 'PLACE',
  storyId: 'st_Lp2sD8fG4hJk6ZxC',
  reason: 'Preservation order: the council budget story and its versions are evidence in a defamation claim',
  caseReference: 'County Court, claim CC-2026-0418',
};

export const sourceStatusExample = {
  id: 'miracle-remedies.example',
  status: 'BANNED',
  previousStatus: 'WATCH',
  reason: 'Sells the products its articles recommend; three retractions this year',
  updatedBy: admin,
  updatedAt: '2026-05-13T09:30:44.702Z',
  citations: 7,
};

export const resolveQuarantineExample = {
  actorId: 'admin-ops-3',
  verified: true,
  linkedHumanId: admin,
  decision: 'BLOCK',
  reason: 'Health claim contradicted by the cited study itself; the source is banned',
};
