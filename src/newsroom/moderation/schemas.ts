import { Type, type Static } from '@sinclair/typebox';
import { CursorParam, NextCursor } from '../../platform/cursor.js';
import { DateTime, HumanActorBody, HumanActorQuery, Nullable } from '../../platform/schemas.js';
import { StringEnum } from '../../platform/string-enum.js';
import { StoryId } from '../common/schemas.js';
import {
  legalHoldExample,
  legalHoldRequestExample,
  quarantineItemExample,
  resolveQuarantineExample,
  sourceStatusExample,
  traceCategoryExample,
} from './examples.js';

/** Moderation administration: the quarantine queue and its decisions, legal holds, source statuses. */

const Reason = Type.String({ minLength: 1, maxLength: 2000, description: 'Why: recorded with the decision and audited' });
const Limit = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 }));

export const QUARANTINE_STATUSES = ['OPEN', 'KEPT', 'RELEASED', 'BLOCKED'] as const;
export const SCOPE_TYPES = ['story'] as const;

export const QuarantineQuery = Type.Object(
  {
    ...HumanActorQuery,
    status: Type.Optional(StringEnum(QUARANTINE_STATUSES, { description: 'OPEN (default): awaiting a decision' })),
    limit: Limit,
    cursor: CursorParam,
  },
  { additionalProperties: false },
);
export type QuarantineQuery = Static<typeof QuarantineQuery>;

const TraceCategory = Type.Object(
  { category: Type.String(), action: Type.String(), hardBlock: Type.Boolean() },
  {
    title: 'TraceCategory',
    description: 'A category the safety scan found, with its action and whether it is a hard-block category (RELEASE refused).',
    examples: [traceCategoryExample],
  },
);

export const QuarantineItem = Type.Object(
  {
    id: Type.String(),
    scopeType: StringEnum(SCOPE_TYPES),
    scopeId: Type.String(),
    status: StringEnum(QUARANTINE_STATUSES),
    createdAt: DateTime,
    hardBlock: Type.Boolean({ description: 'The trace names a hard-block category: RELEASE is refused' }),
    story: Type.Object({
      id: Type.String(),
      title: Type.String(),
      publicationStage: Type.String(),
      moderationStatus: Type.String(),
      packetHash: Type.String(),
    }),
    trace: Type.Object(
      {
        id: Type.String(),
        packetHash: Type.String(),
        decision: StringEnum(['ALLOW', 'QUARANTINE', 'BLOCK']),
        categories: Type.Array(TraceCategory),
        rules: Type.Array(Type.Unknown()),
        scannedAt: DateTime,
      },
      { description: 'The safety trace that put the item here' },
    ),
    decisions: Type.Array(
      Type.Object({
        decision: StringEnum(['RELEASE', 'KEEP', 'BLOCK']),
        reason: Type.String(),
        decidedBy: Type.String(),
        decidedAt: DateTime,
      }),
      { description: 'Every decision so far, oldest first' },
    ),
  },
  {
    title: 'QuarantineItem',
    description:
      'A candidate the safety scan held back: the story, the trace that put it there, whether a hard-block category is involved, its status and the decisions so far.',
    examples: [quarantineItemExample],
  },
);
export type QuarantineItem = Static<typeof QuarantineItem>;

export const QuarantinePage = Type.Object(
  { items: Type.Array(QuarantineItem), nextCursor: NextCursor },
  {
    title: 'QuarantinePage',
    description: 'One page of the quarantine queue, oldest first; nextCursor is present when there is a next page.',
  },
);

export const ResolveParams = Type.Object({
  scopeType: StringEnum(SCOPE_TYPES, { description: 'What was quarantined: `story` (the scan quarantines stories)' }),
  scopeId: StoryId,
});

export const ResolveBody = Type.Object(
  {
    ...HumanActorBody,
    decision: StringEnum(['RELEASE', 'KEEP', 'BLOCK'], {
      description: 'RELEASE publishes as PROVISIONAL (refused for hard-block categories), KEEP leaves it hidden, BLOCK never publishes',
    }),
    reason: Reason,
  },
  {
    title: 'ResolveQuarantineRequest',
    description: 'Body of a quarantine decision: RELEASE, KEEP or BLOCK, and why.',
    examples: [resolveQuarantineExample],
    additionalProperties: false,
  },
);
export type ResolveBody = Static<typeof ResolveBody>;

// ---- legal holds

export const LegalHold = Type.Object(
  {
    id: Type.String(),
    storyId: Type.String(),
    status: StringEnum(['ACTIVE', 'RELEASED']),
    reason: Type.String(),
    caseReference: Nullable(Type.String()),
    placedBy: Type.String(),
    placedAt: DateTime,
    releasedBy: Nullable(Type.String()),
    releasedAt: Nullable(DateTime),
    releaseReason: Nullable(Type.String()),
  },
  {
    title: 'LegalHold',
    description:
      'A legal hold on a story: while ACTIVE the story cannot be corrected, retracted, revised or blocked; with who placed and released it, when and why.',
    examples: [legalHoldExample],
  },
);
export type LegalHold = Static<typeof LegalHold>;

export const LegalHoldsQuery = Type.Object(
  {
    ...HumanActorQuery,
    status: Type.Optional(StringEnum(['ACTIVE', 'RELEASED'])),
    storyId: Type.Optional(StoryId),
    limit: Limit,
    cursor: CursorParam,
  },
  { additionalProperties: false },
);
export type LegalHoldsQuery = Static<typeof LegalHoldsQuery>;

export const LegalHoldsPage = Type.Object(
  { items: Type.Array(LegalHold), nextCursor: NextCursor },
  { title: 'LegalHoldsPage', description: 'One page of legal holds, newest first; nextCursor is present when there is a next page.' },
);

export const LegalHoldBody = Type.Object(
  {
    ...HumanActorBody,
    action: StringEnum(['PLACE', 'RELEASE'], { description: 'PLACE a hold on storyId, or RELEASE the hold holdId' }),
    storyId: Type.Optional(StoryId),
    holdId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })),
    reason: Reason,
    caseReference: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The legal matter (court, case number)' })),
  },
  {
    title: 'LegalHoldRequest',
    description:
      'Body that places a hold on a story (PLACE with storyId) or releases one (RELEASE with holdId), with why and the legal matter.',
    examples: [legalHoldRequestExample],
    additionalProperties: false,
  },
);
export type LegalHoldBody = Static<typeof LegalHoldBody>;

// ---- source statuses

export const SOURCE_RATINGS = ['UNRATED', 'TRUSTED', 'WATCH', 'BANNED'] as const;

export const SourceParams = Type.Object({
  id: Type.String({
    minLength: 1,
    maxLength: 253,
    pattern: '^[A-Za-z0-9][A-Za-z0-9.-]*$',
    description: 'The source: the host of its URLs, without a leading www. (example.org); case-insensitive',
  }),
});

export const SourceStatusBody = Type.Object(
  { ...HumanActorBody, status: StringEnum(SOURCE_RATINGS), reason: Reason },
  {
    title: 'SourceStatusRequest',
    description: 'Body that sets the status of a source host: UNRATED, TRUSTED, WATCH or BANNED, and why.',
    additionalProperties: false,
  },
);
export type SourceStatusBody = Static<typeof SourceStatusBody>;

export const SourceStatusResponse = Type.Object(
  {
    id: Type.String({ description: 'The host' }),
    status: StringEnum(SOURCE_RATINGS),
    previousStatus: StringEnum(SOURCE_RATINGS),
    reason: Type.String(),
    updatedBy: Type.String(),
    updatedAt: DateTime,
    citations: Type.Integer({ description: 'Story citations of this host' }),
  },
  {
    title: 'SourceStatus',
    description: 'A source host with its moderation status, the previous status, who set it and why, and how many story citations name it.',
    examples: [sourceStatusExample],
  },
);
export type SourceStatusResponse = Static<typeof SourceStatusResponse>;
