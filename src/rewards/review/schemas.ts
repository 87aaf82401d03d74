import { Type } from '@sinclair/typebox';
import { DateTime, HumanActorBody, HumanActorQuery, Identifier } from '../../platform/schemas.js';
import { Amount } from '../money/schemas.js';
import { Payout } from '../settlements/schemas.js';

/** Fraud review cases, freezes and the review queue (docs/rewards.md, "Fraud review and freezes (rewards admins)"). */

export const CaseStatus = Type.Union([
  Type.Literal('OPEN'),
  Type.Literal('IN_REVIEW'),
  Type.Literal('APPEALED'),
  Type.Literal('ESCALATED'),
  Type.Literal('RESOLVED'),
  Type.Literal('DISMISSED'),
]);
export const TargetType = Type.Union([Type.Literal('RECIPIENT'), Type.Literal('STORY'), Type.Literal('BATCH'), Type.Literal('PAYOUT')]);
const Note = Type.String({ minLength: 1, maxLength: 2000 });

export const OpenCaseBody = Type.Object(
  { ...HumanActorBody, targetType: TargetType, targetId: Identifier, reason: Note, assignedToActorId: Type.Optional(Identifier) },
  { title: 'OpenReviewCaseRequest', additionalProperties: false },
);
export const AssignBody = Type.Object(
  {
    ...HumanActorBody,
    assigneeActorId: Type.Optional(Identifier),
    escalate: Type.Optional(Type.Boolean({ description: 'true: escalate (ESCALATED) instead of assigning for review (IN_REVIEW)' })),
    note: Type.Optional(Note),
  },
  { title: 'AssignReviewCaseRequest', additionalProperties: false },
);
export const AppealBody = Type.Object({ ...HumanActorBody, note: Note }, { title: 'AppealReviewCaseRequest', additionalProperties: false });
export const ResolveBody = Type.Object(
  {
    ...HumanActorBody,
    outcome: Type.Union([Type.Literal('RESOLVED'), Type.Literal('DISMISSED')]),
    resolution: Note,
    releasePayouts: Type.Optional(
      Type.Boolean({ description: "true: the target's payouts held in REVIEW become payable (or wait for a wallet); frozen ones stay" }),
    ),
  },
  { title: 'ResolveReviewCaseRequest', additionalProperties: false },
);
export const CaseParams = Type.Object({ caseId: Identifier });

export const ReviewCase = Type.Object(
  {
    id: Type.String(),
    targetType: TargetType,
    targetId: Type.String(),
    status: CaseStatus,
    queue: Type.Optional(Type.String()),
    reason: Type.String(),
    assignedToActorId: Type.Union([Type.String(), Type.Null()]),
    resolution: Type.Union([Type.String(), Type.Null()]),
    openedBy: Type.String(),
    createdAt: DateTime,
    dueAt: DateTime,
    updatedAt: DateTime,
    closedAt: Type.Union([DateTime, Type.Null()]),
    history: Type.Optional(
      Type.Array(
        Type.Object({
          action: Type.String(),
          fromStatus: Type.Union([Type.String(), Type.Null()]),
          toStatus: Type.String(),
          actor: Type.String(),
          note: Type.Union([Type.String(), Type.Null()]),
          at: DateTime,
        }),
      ),
    ),
  },
  { title: 'ReviewCase' },
);

export const FreezeBody = Type.Object({ ...HumanActorBody, reason: Note }, { title: 'FreezeRequest', additionalProperties: false });
export const RecipientParams = Type.Object({ recipientId: Identifier });
export const StoryParams = Type.Object({ storyId: Identifier });
export const FreezeResult = Type.Object(
  {
    targetType: TargetType,
    targetId: Type.String(),
    frozen: Type.Boolean(),
    reason: Type.String(),
    at: DateTime,
    payoutsFrozen: Type.Integer(),
    payoutsToReview: Type.Integer({ description: 'Frozen payouts returned to REVIEW by an unfreeze (never straight to payable)' }),
  },
  { title: 'FreezeResult' },
);

export const QueueQuery = Type.Object(
  { ...HumanActorQuery, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })) },
  { additionalProperties: false },
);
export const ReviewQueue = Type.Object(
  {
    generatedAt: DateTime,
    items: Type.Array(
      Type.Object({
        kind: Type.Union([
          Type.Literal('FROZEN_RECIPIENT'),
          Type.Literal('FROZEN_STORY'),
          Type.Literal('HELD_PAYOUT'),
          Type.Literal('CASE'),
        ]),
        queue: Type.String({ description: 'PENDING, OVERDUE, FROZEN, APPEALED, ESCALATED or RESOLVED' }),
        targetType: Type.String(),
        targetId: Type.String(),
        since: DateTime,
        reason: Type.Union([Type.String(), Type.Null()]),
        by: Type.Union([Type.String(), Type.Null()]),
        held: Type.Optional(Type.Object({ count: Type.Integer(), amount: Amount })),
        payout: Type.Optional(Payout),
        case: Type.Optional(ReviewCase),
      }),
    ),
  },
  { title: 'ReviewQueue' },
);
