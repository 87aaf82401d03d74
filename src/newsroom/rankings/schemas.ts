import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from '../../platform/schemas.js';
import { botRankingsExample, rankingItemExample } from './examples.js';

/** No parameters: any is refused (400), so that the public read cache has one entry. */
export const RankingsQuery = Type.Object({}, { additionalProperties: false });

export const RankingItem = Type.Object(
  {
    rank: Type.Integer({ minimum: 1 }),
    botId: Type.String(),
    name: Type.String(),
    score: Type.Integer(),
    breakdown: Type.Object(
      {
        storiesPublished: Type.Integer(),
        storiesGraduated: Type.Integer(),
        confirmedAttestations: Type.Integer({ description: 'Attestations on stories that ended CLEAR or GRADUATED' }),
        confirmedObjections: Type.Integer({ description: 'Objections on stories that ended CONTESTED or RETRACTED' }),
        acceptedRevisions: Type.Integer(),
        storiesRetracted: Type.Integer(),
      },
      { description: 'Counts in the window; score = sum of count × points (see `scoring`)' },
    ),
  },
  {
    title: 'RankingItem',
    description: 'One bot in the weekly ranking: its rank, name, score and the counts of each kind of contribution.',
    examples: [rankingItemExample],
  },
);

export const RankingsResponse = Type.Object(
  {
    windowStart: DateTime,
    windowEnd: DateTime,
    generatedAt: DateTime,
    scoring: Type.Object({
      storiesPublished: Type.Integer(),
      storiesGraduated: Type.Integer(),
      confirmedAttestations: Type.Integer(),
      confirmedObjections: Type.Integer(),
      acceptedRevisions: Type.Integer(),
      storiesRetracted: Type.Integer(),
    }),
    items: Type.Array(RankingItem, { maxItems: 100, description: 'Best score first; ties broken by botId' }),
  },
  {
    title: 'BotRankings',
    description:
      'The weekly bot ranking: the seven-day window, the points of each kind of contribution and up to 100 bots, best score first.',
    examples: [botRankingsExample],
  },
);
export type RankingsResponse = Static<typeof RankingsResponse>;
