import { Type, type Static } from '@sinclair/typebox';
import { NextCursor } from '../../platform/cursor.js';
import { DateTime, HumanActorBody, Nullable } from '../../platform/schemas.js';
import { ClaimId } from '../common/schemas.js';
import { createFlagExample, flagExample, flagPageExample, storyFlagExample } from './examples.js';

/** Reader flags and challenges on a story: the write and the list. */

const Severity = Type.Union([Type.Literal('LOW'), Type.Literal('MEDIUM'), Type.Literal('HIGH')]);

export const FlagBody = Type.Object(
  { ...HumanActorBody, severity: Severity, reason: Type.String({ minLength: 1, maxLength: 2000 }), claimId: Type.Optional(ClaimId) },
  {
    title: 'CreateFlagRequest',
    description: 'Body of a flag: the actor fields, the severity (LOW, MEDIUM, HIGH), why, and the claim it concerns (required for HIGH).',
    examples: [createFlagExample],
    additionalProperties: false,
  },
);
export type FlagBody = Static<typeof FlagBody>;

/** A flag as every read and write answers it. */
const Flag = Type.Object(
  {
    id: Type.String(),
    actorId: Type.String(),
    verified: Type.Boolean(),
    severity: Severity,
    claimId: Nullable(Type.String()),
    reason: Type.String(),
    challenge: Type.Boolean({ description: 'true for a HIGH flag on a claim (a challenge): the story goes UNDER_REVIEW' }),
    createdAt: DateTime,
  },
  {
    title: 'Flag',
    description:
      'A reader flag on a story or one of its claims: severity, reason, and whether it is a challenge (a HIGH flag on a claim, which put the story under review).',
    examples: [flagExample],
  },
);
export type Flag = Static<typeof Flag>;

export const FlagResponse = Type.Composite(
  [Type.Object({ storyId: Type.String(), verifiedActionId: Nullable(Type.String()), reviewStatus: Type.String() }), Flag],
  {
    title: 'StoryFlag',
    description:
      "A flag as the write answers it: the flag, the story, the verified human action a HIGH flag consumed and the story's review status after it.",
    examples: [storyFlagExample],
  },
);

export const FlagsResponse = Type.Object(
  {
    storyId: Type.String(),
    items: Type.Array(Flag, { description: 'Oldest first' }),
    nextCursor: NextCursor,
  },
  {
    title: 'FlagPage',
    description: 'One page of the flags on a story, oldest first; nextCursor is present when there is a next page.',
    examples: [flagPageExample],
  },
);
export type FlagsResponse = Static<typeof FlagsResponse>;
