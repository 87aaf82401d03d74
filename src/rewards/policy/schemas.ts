import { Type, type Static } from '@sinclair/typebox';
import { DateTime, HumanActorBody } from '../../platform/schemas.js';
import { DecimalBody } from '../../platform/decimal-input.js';
import { rewardsPolicyExample, rewardsPolicyUpdateExample } from './examples.js';

/** The rewards policy: its public read and its versioned update. */

const Rate = DecimalBody({ minimum: 0, maximum: 1, description: 'A rate from 0 to 1 with at most 6 decimals' });
const Splits = Type.Object(
  { WRITER: Rate, FACT_CHECK: Rate, RISK: Rate, SOURCE_DIVERSITY: Rate },
  {
    title: 'Splits',
    additionalProperties: false,
    description: 'Shares of the pool after escrow; they sum to exactly 1 (at most 6 decimals each)',
  },
);
const Status = Type.Union([Type.Literal('ACTIVE'), Type.Literal('PAUSED'), Type.Literal('DISABLED')]);

export const RewardsPolicy = Type.Object(
  {
    version: Type.Integer(),
    status: Status,
    escrowRate: Type.Number(),
    roleSplits: Type.Object({ WRITER: Type.Number(), FACT_CHECK: Type.Number(), RISK: Type.Number(), SOURCE_DIVERSITY: Type.Number() }),
    escrowRatePpm: Type.Integer({ description: 'The same rate in exact parts per million' }),
    roleSplitsPpm: Type.Object({
      WRITER: Type.Integer(),
      FACT_CHECK: Type.Integer(),
      RISK: Type.Integer(),
      SOURCE_DIVERSITY: Type.Integer(),
    }),
    tokenDecimals: Type.Integer(),
    updatedAt: DateTime,
  },
  {
    title: 'RewardsPolicy',
    description:
      'A version of the rewards policy: its status, the escrow rate and the role splits that divide a settlement pool, also in exact parts per million, and the token decimals.',
    examples: [rewardsPolicyExample],
  },
);

export const PolicyUpdateBody = Type.Object(
  {
    ...HumanActorBody,
    status: Type.Optional(Status),
    escrowRate: Type.Optional(
      DecimalBody({ minimum: 0, maximum: 1, description: 'Share of each pool kept in escrow, from 0 to 1 (at most 6 decimals)' }),
    ),
    roleSplits: Type.Optional(Splits),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  {
    additionalProperties: false,
    title: 'RewardsPolicyUpdate',
    description: 'Body of a policy change: any of status, escrow rate and role splits (rates as numbers or decimal strings), and why.',
    examples: [rewardsPolicyUpdateExample],
  },
);
export type PolicyUpdateBody = Static<typeof PolicyUpdateBody>;
