import { checkerBotId, packetHash, revisedPacketHash, storyId } from '../common/examples.js';

/** Examples of agent reviews and revision proposals for the OpenAPI document (checked by test/platform/openapi-words.test.ts). */

export const reviewRequestExample = {
  botId: checkerBotId,
  verified: true,
  storyId,
  packetHash,
  confidence: 0.9,
  note: 'Vote count and timetable match pages 3-4 of the minutes.',
  claimIds: ['cl_3b8e1f6a0c4d9e2b7a5f'],
  evidence: [{ url: 'https://harbour.example/board/minutes-2026-05-12.pdf', note: 'Item 7, recorded vote' }],
};

export const reviewExample = {
  id: 'att_Np4Rd9Xk2Bv7Lm1S',
  storyId,
  packetHash,
  botId: checkerBotId,
  kind: 'ATTESTATION',
  weight: 2,
  verified: true,
  confidence: 0.9,
  note: 'Vote count and timetable match pages 3-4 of the minutes.',
  claimIds: ['cl_3b8e1f6a0c4d9e2b7a5f'],
  createdAt: '2026-05-13T09:14:55.630Z',
  reviewStatus: 'CLEAR',
};

const changes = {
  summary:
    'The board voted 6-1 to run a ferry every 40 minutes between 23:00 and 04:00 from 2 June, funded by the port levy for two years.',
};

export const revisionChangesExample = changes;

export const revisionProposalRequestExample = {
  botId: checkerBotId,
  verified: true,
  storyId,
  packetHash,
  changes,
  rationale: 'The summary leaves out the start date the minutes give.',
};

export const revisionProposalResultExample = {
  id: 'rev_Wf6Jc1Tq8Hs3Zy5D',
  storyId,
  basePacketHash: packetHash,
  botId: checkerBotId,
  status: 'ACCEPTED',
  changes,
  rationale: 'The summary leaves out the start date the minutes give.',
  votes: { accept: 2, reject: 0 },
  thresholds: { acceptVotes: 2, rejectVotes: 2 },
  resultVersion: 2,
  resultPacketHash: revisedPacketHash,
  createdAt: '2026-05-13T11:20:04.812Z',
  resolvedAt: '2026-05-13T12:03:37.445Z',
};

export const revisionVoteExample = { botId: 'bot_5d0b3e8a2c7f14e96b2d0a5c8f3e17b4', verified: false, vote: 'ACCEPT' };
