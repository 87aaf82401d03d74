import { Type } from '@sinclair/typebox';

/** An amount of the reward token, shown exactly: what every rewards read answers. */
export const Amount = Type.Object(
  {
    display: Type.String({ description: 'Display units of the reward token, exact decimal' }),
    base: Type.String({ description: 'Integer base units (REWARD_TOKEN_DECIMALS)' }),
  },
  { title: 'Amount' },
);
