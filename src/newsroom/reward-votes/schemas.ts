import { Type, type Static } from '@sinclair/typebox';
import { HumanActorBody } from '../../platform/schemas.js';
import { rewardVoteExample } from './examples.js';

/** A reader's reward vote on a story. */

export const RewardVoteBody = Type.Object(
  { ...HumanActorBody, vote: Type.Union([Type.Literal('UP'), Type.Literal('DOWN')]) },
  { title: 'CreateRewardVoteRequest', description: 'Body of a reward vote: the actor fields and UP or DOWN.', additionalProperties: false },
);
export type RewardVoteBody = Static<typeof RewardVoteBody>;

export const RewardVoteChangeBody = Type.Object(
  { ...HumanActorBody, vote: Type.Union([Type.Literal('UP'), Type.Literal('DOWN')]) },
  {
    title: 'ChangeRewardVoteRequest',
    description: "Body of a change of one's reward vote: the actor fields and the new direction, UP or DOWN.",
    additionalProperties: false,
  },
);

export const RewardVoteResponse = Type.Object(
  {
    id: Type.String(),
    storyId: Type.String(),
    actorId: Type.String(),
    vote: Type.Union([Type.Literal('UP'), Type.Literal('DOWN')]),
    weight: Type.Integer({
      description:
        "The voter's tier weight (L3 3, L2 2) with a verified action reward:<storyId> of the voter's linked human, consumed by this vote; else 1",
    }),
    tier: Type.String(),
    verifiedActionId: Type.Union([Type.String(), Type.Null()], {
      description: 'The verified human action reward:<storyId> this vote consumed',
    }),
    rewardWindowClosesAt: Type.String({ format: 'date-time' }),
    createdAt: Type.String({ format: 'date-time' }),
    changedAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'When the reader last changed the vote (PUT …/reward-votes/mine); absent while it stands as cast',
      }),
    ),
  },
  {
    title: 'RewardVote',
    description:
      "A reader's reward vote on a story: UP or DOWN, its weight and the tier it came from, the verified action it consumed, and when the story's reward window closes.",
    examples: [rewardVoteExample],
  },
);
