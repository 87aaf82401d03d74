import { Type, type Static } from '@sinclair/typebox';
import { HumanActorBody } from '../../platform/schemas.js';
import { ClaimId } from '../candidates/schemas.js';

export const StoryParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) });

export const CommentBody = Type.Object(
  { ...HumanActorBody, body: Type.String({ minLength: 1, maxLength: 5000 }), parentId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) },
  { additionalProperties: false },
);
export type CommentBody = Static<typeof CommentBody>;

export const CommentResponse = Type.Object({
  id: Type.String(),
  storyId: Type.String(),
  actorId: Type.String(),
  verified: Type.Boolean(),
  parentId: Type.Union([Type.String(), Type.Null()]),
  body: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});

export const Severity = Type.Union([Type.Literal('LOW'), Type.Literal('MEDIUM'), Type.Literal('HIGH')]);

export const FlagBody = Type.Object(
  { ...HumanActorBody, severity: Severity, reason: Type.String({ minLength: 1, maxLength: 2000 }), claimId: Type.Optional(ClaimId) },
  { additionalProperties: false },
);
export type FlagBody = Static<typeof FlagBody>;

export const FlagResponse = Type.Object({
  id: Type.String(),
  storyId: Type.String(),
  actorId: Type.String(),
  severity: Severity,
  claimId: Type.Union([Type.String(), Type.Null()]),
  reason: Type.String(),
  challenge: Type.Boolean({ description: 'true for a HIGH flag on a claim: the story goes UNDER_REVIEW' }),
  verifiedActionId: Type.Union([Type.String(), Type.Null()]),
  reviewStatus: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});

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
