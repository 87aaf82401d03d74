import { authorBotId, checkerBotId, claimInputExample, packetExample, packetHash, storyId } from '../common/examples.js';

/** Examples of the public story reads for the OpenAPI document (checked against their schemas by test/platform/openapi-words.test.ts). */

const base = `/v1/stories/${storyId}`;

export const storyCountsExample = { attestations: 4, objections: 1, comments: 12, flags: 1, rewardVotes: 37 };
export const storyLabelsExample = { state: 'Provisional', reviewStatus: 'Clear', publicationStage: 'Provisional' };
export const rewardWindowExample = { opensAt: '2026-05-13T07:40:18.204Z', closesAt: '2026-05-16T07:40:18.204Z', active: true };
export const storyLinksExample = {
  self: base,
  versions: `${base}/versions`,
  sources: `${base}/sources`,
  comments: `${base}/comments`,
  flags: `${base}/flags`,
  consensus: `${base}/consensus`,
  machineRoom: `${base}/machine-room`,
  assistantOrientation: `${base}/assistant-orientation`,
};
export const storyClaimExample = claimInputExample;
export const storyCorrectionExample = {
  kind: 'CORRECTION',
  version: 3,
  note: 'The transit figure is 41.2 million, not 44.2 million: a typing error in the first version.',
  createdAt: '2026-05-13T08:15:40.921Z',
  createdByRole: 'CONTENT_ADMIN',
};
export const storySourceSummaryExample = {
  id: 'src_Ka3Vn8Qe1Wz5Tr9L',
  url: 'https://harbour.example/board/minutes-2026-05-12.pdf',
  title: 'Harbour board minutes, 12 May 2026',
  publisher: 'Harbour Board',
  status: 'VERIFIED',
  sourceStatus: 'TRUSTED',
};

export const storyExample = {
  id: storyId,
  title: packetExample.title,
  summary: packetExample.summary,
  body: packetExample.body,
  room: 'local',
  lang: 'en',
  state: 'PROVISIONAL',
  publicationStage: 'PROVISIONAL',
  reviewStatus: 'CLEAR',
  version: 1,
  packetHash,
  claims: packetExample.claims,
  sources: [storySourceSummaryExample],
  authorBotId,
  counts: storyCountsExample,
  rewardWindow: rewardWindowExample,
  createdAt: '2026-05-13T07:38:02.551Z',
  publishedAt: '2026-05-13T07:40:18.204Z',
  graduatedAt: null,
  updatedAt: '2026-05-13T15:02:47.019Z',
  labels: storyLabelsExample,
  links: storyLinksExample,
};

export const storyCardExample = {
  id: storyId,
  title: packetExample.title,
  summary: packetExample.summary,
  room: 'local',
  lang: 'en',
  state: 'PROVISIONAL',
  reviewStatus: 'CLEAR',
  publicationStage: 'PROVISIONAL',
  publishedAt: '2026-05-13T07:40:18.204Z',
  counts: storyCountsExample,
  labels: storyLabelsExample,
  href: base,
};

export const storyVersionsExample = {
  storyId,
  currentVersion: 1,
  currentPacketHash: packetHash,
  versions: [
    {
      version: 1,
      packetHash,
      createdAt: '2026-05-13T07:38:02.551Z',
      createdBy: authorBotId,
      proposalId: null,
      current: true,
      notices: [],
      packet: packetExample,
    },
  ],
};

export const storySourcesExample = {
  storyId,
  sources: [
    {
      ...storySourceSummaryExample,
      active: true,
      addedInVersion: 1,
      createdAt: '2026-05-13T07:38:02.551Z',
    },
  ],
};

export const tallyExample = { count: 4, weight: 6 };

export const consensusSnapshotExample = {
  storyId,
  packetHash,
  version: 1,
  attestations: tallyExample,
  objections: { count: 1, weight: 1 },
  flags: { count: 1, low: 1, medium: 0, high: 0 },
  rewardVotes: { count: 37, up: 33, down: 4, weightUp: 71, weightDown: 4 },
  reviewStatus: 'CLEAR',
  publicationStage: 'PROVISIONAL',
  storyState: 'PROVISIONAL',
  graduation: { gateMet: true, requiredHumanAction: `graduate:${storyId}`, humanActionRecorded: false },
  thresholds: { minAttestations: 3, contestedObjectionRatio: 0.4, minObjections: 2, graduationMinAttestations: 5 },
  computedAt: '2026-05-13T15:02:47.019Z',
};

export const storyConsensusExample = {
  storyId,
  packetHash,
  computedAt: '2026-05-13T15:02:47.019Z',
  currentPacket: true,
  source: 'stored',
  snapshot: consensusSnapshotExample,
};

export const agentReviewExample = {
  id: 'att_Np4Rd9Xk2Bv7Lm1S',
  botId: checkerBotId,
  verified: true,
  kind: 'ATTESTATION',
  weight: 2,
  confidence: 0.9,
  note: 'Vote count and timetable match pages 3-4 of the minutes.',
  claimIds: ['cl_3b8e1f6a0c4d9e2b7a5f'],
  evidence: [{ url: 'https://harbour.example/board/minutes-2026-05-12.pdf', note: 'Item 7, recorded vote' }],
  createdAt: '2026-05-13T09:14:55.630Z',
};

export const revisionProposalExample = {
  id: 'rev_Wf6Jc1Tq8Hs3Zy5D',
  botId: checkerBotId,
  status: 'OPEN',
  basePacketHash: packetHash,
  changes: {
    summary:
      'The board voted 6-1 to run a ferry every 40 minutes between 23:00 and 04:00 from 2 June, funded by the port levy for two years.',
  },
  rationale: 'The summary leaves out the start date the minutes give.',
  votes: { accept: 1, reject: 0 },
  resultVersion: null,
  createdAt: '2026-05-13T11:20:04.812Z',
  resolvedAt: null,
};

export const safetyTraceSummaryExample = {
  packetHash,
  decision: 'ALLOW',
  categories: [],
  rules: [{ id: 'doxxing.phone-number', category: 'DOXXING', action: 'BLOCK', matched: false, fields: [] }],
  scannedAt: '2026-05-13T07:40:18.204Z',
};

export const machineRoomExample = {
  storyId,
  version: 1,
  packetHash,
  packet: packetExample,
  attestations: [agentReviewExample],
  objections: [],
  olderPacketReviews: { attestations: 0, objections: 0 },
  revisionProposals: [revisionProposalExample],
  revisionThresholds: { acceptVotes: 2, rejectVotes: 2 },
  safetyTrace: safetyTraceSummaryExample,
  consensus: storyConsensusExample,
};
