import { Type, type Static } from '@sinclair/typebox';
import { HumanActorBody } from '../../platform/schemas.js';

/** A reader's reward vote on a story. */

export const RewardVoteBody = Type.Object({ ...HumanActorBody, vote: Type.Union([Type.Literal('UP'), Type.Literal('DOWN')]) }, { additionalProperties: false });
export type RewardVoteBody = Static<typeof RewardVoteBody>;

export const RewardVoteResponse = Type.Object({
  id: Type.String(),
  storyId: Type.String(),
  actorId: Type.String(),
  vote: Type.Union([Type.Literal('UP'), Type.Literal('DOWN')]),
  weight: Type.Integer(),
  tier: Type.String(),
  rewardWindowClosesAt: Type.String({ format: 'date-time' }),
  createdAt: Type.String({ format: 'date-time' }),
});
