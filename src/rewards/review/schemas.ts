import { Type } from '@sinclair/typebox';
import { DateTime, HumanActorBody, HumanActorQuery, Identifier } from '../../platform/schemas.js';
import { Amount } from '../money/schemas.js';
import { Payout } from '../settlements/schemas.js';
import { freezeResultExample, openReviewCaseExample, reviewCaseExample, reviewQueueExample } from './examples.js';

/** Fraud review cases, freezes and the review queue. */

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
  {
    title: 'OpenReviewCaseRequest',
    description: 'Body that opens a fraud review case: the target (recipient, story, batch or payout), why, and optionally the assignee.',
    examples: [openReviewCaseExample],
    additionalProperties: false,
  },
);
export const AssignBody = Type.Object(
  {
    ...HumanActorBody,
    assigneeActorId: Type.Optional(Identifier),
    escalate: Type.Optional(Type.Boolean({ description: 'true: escalate (ESCALATED) instead of assigning for review (IN_REVIEW)' })),
    note: Type.Optional(Note),
  },
  {
    title: 'AssignReviewCaseRequest',
    description: 'Body that assigns a case to a reviewer, or escalates it, with an optional note.',
    additionalProperties: false,
  },
);
export const AppealBody = Type.Object(
  { ...HumanActorBody, note: Note },
  { title: 'AppealReviewCaseRequest', description: 'Body that appeals a decided case: the note.', additionalProperties: false },
);
export const ResolveBody = Type.Object(
  {
    ...HumanActorBody,
    outcome: Type.Union([Type.Literal('RESOLVED'), Type.Literal('DISMISSED')]),
    resolution: Note,
    releasePayouts: Type.Optional(
      Type.Boolean({ description: "true: the target's payouts held in REVIEW become payable (or wait for a wallet); frozen ones stay" }),
    ),
  },
  {
    title: 'ResolveReviewCaseRequest',
    description: 'Body that decides a case: RESOLVED or DISMISSED, the resolution, and whether the payouts held for it are released.',
    additionalProperties: false,
  },
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
  {
    title: 'ReviewCase',
    description:
      'A fraud review case on a recipient, story, distribution batch or payout: its state (OPEN, IN_REVIEW, ESCALATED, APPEALED, RESOLVED, DISMISSED), queue view, assignee, due time and the history of its moves.',
    examples: [reviewCaseExample],
  },
);

export const FreezeBody = Type.Object(
  { ...HumanActorBody, reason: Note },
  { title: 'FreezeRequest', description: 'Body of a freeze or an unfreeze: why.', additionalProperties: false },
);
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
  {
    title: 'FreezeResult',
    description:
      'The outcome of a freeze or an unfreeze: the target, whether it is frozen now, and how many payouts moved to FROZEN or back to REVIEW.',
    examples: [freezeResultExample],
  },
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
  {
    title: 'ReviewQueue',
    description:
      'What waits for a rewards decision, oldest first: frozen recipients and stories with what they hold, payouts held in REVIEW, and open cases.',
    examples: [reviewQueueExample],
  },
);
