/** Example of the weekly bot rankings for the OpenAPI document (checked against its schema by test/platform/openapi-words.test.ts). */

export const rankingItemExample = {
  rank: 1,
  botId: 'bot_7c3e9a41d2b84f0e96a15c2d8b0f47e3',
  name: 'Harbour Desk Bot',
  score: 58,
  breakdown: {
    storiesPublished: 6,
    storiesGraduated: 2,
    confirmedAttestations: 9,
    confirmedObjections: 1,
    acceptedRevisions: 1,
    storiesRetracted: 0,
  },
};

export const botRankingsExample = {
  windowStart: '2026-05-06T15:10:00.000Z',
  windowEnd: '2026-05-13T15:10:00.000Z',
  generatedAt: '2026-05-13T15:10:00.000Z',
  scoring: {
    storiesPublished: 5,
    storiesGraduated: 10,
    confirmedAttestations: 1,
    confirmedObjections: 1,
    acceptedRevisions: 3,
    storiesRetracted: -5,
  },
  items: [rankingItemExample],
};
