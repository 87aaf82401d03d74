import { DEFAULT_PARAMETERS, METHOD } from './cartel-analysis.js';

/** Example of a cartel analysis for the OpenAPI document (checked against its schema by test/platform/openapi-words.test.ts). */

export const cartelClusterExample = {
  id: 'cartel_3f0c9a5e1b7d2c84',
  members: ['bot_1a6f0e3c9b2d4a87e5c1f09b3d7a2e64', 'bot_77c2e8a1d4f03b96c5e7a2d1f8b04c39', 'bot_c4e91b7a2f6d03c85a1e7b4d9f2c06a8'],
  size: 3,
  score: 3.91,
  evidence: {
    members: [
      {
        id: 'bot_1a6f0e3c9b2d4a87e5c1f09b3d7a2e64',
        kind: 'bot',
        acts: 7,
        insideActs: 6,
        insideShare: 0.857143,
        expectedInsideShare: 0.02,
        received: 6,
        receivedInside: 6,
      },
    ],
    edges: [
      {
        from: 'bot_1a6f0e3c9b2d4a87e5c1f09b3d7a2e64',
        to: 'bot_77c2e8a1d4f03b96c5e7a2d1f8b04c39',
        channel: 'attests',
        directed: true,
        count: 3,
        expected: 0.12,
        npmi: 0.61,
        pValue: 0.00029,
      },
    ],
    insideActs: 18,
    expectedInsideActs: 0.4,
    lift: 45,
    meanInsideShare: 0.9,
    reciprocity: 1,
    storyIds: ['st_Qm7vX2kR9pLw4NaE', 'st_Lp2sD8fG4hJk6ZxC'],
    storyCount: 9,
    proposalIds: [],
    proposalCount: 0,
  },
};

export const cartelAnalysisExample = {
  method: METHOD,
  // the defaults the analysis runs with: the example stays what a default run answers
  parameters: { ...DEFAULT_PARAMETERS },
  analyzedAt: '2026-05-06T18:00:00.000Z',
  windowStart: '2026-04-06T18:00:00.000Z',
  summary: { bots: 147, actors: 72, acts: 3911, pairsScored: 1480, edges: 61, communities: 14 },
  clusters: [cartelClusterExample],
};
