import { Type, type Static } from '@sinclair/typebox';
import { NextCursor } from '../../platform/cursor.js';
import { DateTime, HumanActorBody, Nullable } from '../../platform/schemas.js';
import { ClaimId } from '../common/schemas.js';

/** Reader flags and challenges on a story: the write and the list. */

const Severity = Type.Union([Type.Literal('LOW'), Type.Literal('MEDIUM'), Type.Literal('HIGH')]);

export const FlagBody = Type.Object(
  { ...HumanActorBody, severity: Severity, reason: Type.String({ minLength: 1, maxLength: 2000 }), claimId: Type.Optional(ClaimId) },
  { title: 'CreateFlagRequest', additionalProperties: false },
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
  { title: 'Flag' },
);
export type Flag = Static<typeof Flag>;

export const FlagResponse = Type.Composite(
  [Type.Object({ storyId: Type.String(), verifiedActionId: Nullable(Type.String()), reviewStatus: Type.String() }), Flag],
  { title: 'StoryFlag' },
);

export const FlagsResponse = Type.Object(
  {
    storyId: Type.String(),
    items: Type.Array(Flag, { description: 'Oldest first' }),
    nextCursor: NextCursor,
  },
  { title: 'FlagPage' },
);
export type FlagsResponse = Static<typeof FlagsResponse>;
