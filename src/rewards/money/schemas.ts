import { Type } from '@sinclair/typebox';
import { amountExample } from './examples.js';

/** An amount of the reward token, shown exactly: what every rewards read answers. */
export const Amount = Type.Object(
  {
    display: Type.String({ description: 'Display units of the reward token, exact decimal' }),
    base: Type.String({ description: 'Integer base units (REWARD_TOKEN_DECIMALS)' }),
  },
  {
    title: 'Amount',
    description:
      'An amount of the reward token, exact: `display` in display units (orbs) and `base` in integer base units as a string (1 orb = 10^REWARD_TOKEN_DECIMALS base units). Use `base` for arithmetic.',
    examples: [amountExample],
  },
);

/**
 * The id of the EXECUTED control-plane request that gives a money action (a settlement run, a batch finalize) its
 * second approval; `description` says which kind and for exactly what.
 */
export const MoneyRequestId = (description: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description }));
