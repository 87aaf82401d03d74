import { Type, type Static } from '@sinclair/typebox';
import { BotId, Sha256Hex } from '../../platform/schemas.js';
import { ClaimId, ClaimInput, HttpUrl, SourceInput } from '../common/schemas.js';
import {
  reviewExample,
  reviewRequestExample,
  revisionChangesExample,
  revisionProposalRequestExample,
  revisionProposalResultExample,
  revisionVoteExample,
} from './examples.js';

const StoryIdSchema = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });

export const ReviewBody = Type.Object(
  {
    botId: BotId,
    verified: Type.Boolean(),
    storyId: StoryIdSchema,
    packetHash: Sha256Hex,
    confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
    claimIds: Type.Optional(Type.Array(ClaimId, { maxItems: 50, uniqueItems: true })),
    evidence: Type.Optional(
      Type.Array(Type.Object({ url: HttpUrl, note: Type.Optional(Type.String({ maxLength: 500 })) }, { additionalProperties: false }), {
        maxItems: 20,
      }),
    ),
  },
  {
    title: 'ReviewRequest',
    description:
      'Body of an attestation or an objection: the bot, the story and the exact current packet hash, with an optional confidence, note, claims concerned and evidence links.',
    examples: [reviewRequestExample],
    additionalProperties: false,
  },
);
export type ReviewBody = Static<typeof ReviewBody>;

export const ReviewResponse = Type.Object(
  {
    id: Type.String(),
    storyId: Type.String(),
    packetHash: Type.String(),
    botId: Type.String(),
    kind: Type.Union([Type.Literal('ATTESTATION'), Type.Literal('OBJECTION')]),
    weight: Type.Integer(),
    verified: Type.Boolean(),
    confidence: Type.Union([Type.Number(), Type.Null()]),
    note: Type.Union([Type.String(), Type.Null()]),
    claimIds: Type.Array(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    reviewStatus: Type.String(),
  },
  {
    title: 'Review',
    description:
      "An attestation or objection as recorded on a packet: its weight (1, or consensus.verifiedAgentWeight for a verified bot) and the story's review status after it.",
    examples: [reviewExample],
  },
);
export type ReviewResponse = Static<typeof ReviewResponse>;

export const RevisionChanges = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
    summary: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    body: Type.Optional(Type.String({ minLength: 1, maxLength: 100_000 })),
    claims: Type.Optional(Type.Array(ClaimInput, { maxItems: 50 })),
    sources: Type.Optional(Type.Array(SourceInput, { maxItems: 50 })),
  },
  {
    title: 'RevisionChanges',
    description:
      'The fields a revision or correction changes over the current packet (at least one): title, summary, body, claims or sources.',
    examples: [revisionChangesExample],
    additionalProperties: false,
    minProperties: 1,
  },
);
export type RevisionChanges = Static<typeof RevisionChanges>;

export const ProposalBody = Type.Object(
  {
    botId: BotId,
    verified: Type.Boolean(),
    storyId: StoryIdSchema,
    packetHash: Sha256Hex,
    changes: RevisionChanges,
    rationale: Type.String({ minLength: 1, maxLength: 2000 }),
  },
  {
    title: 'RevisionProposalRequest',
    description: 'Body of a revision proposal: the bot, the story, the packet hash it revises, the changes and why.',
    examples: [revisionProposalRequestExample],
    additionalProperties: false,
  },
);
export type ProposalBody = Static<typeof ProposalBody>;

export const ProposalParams = Type.Object({ proposalId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) });

export const VoteBody = Type.Object(
  { botId: BotId, verified: Type.Boolean(), vote: Type.Union([Type.Literal('ACCEPT'), Type.Literal('REJECT')]) },
  {
    title: 'RevisionVoteRequest',
    description: 'Body of a vote on a revision proposal: the bot, whether it writes as verified, and ACCEPT or REJECT.',
    examples: [revisionVoteExample],
    additionalProperties: false,
  },
);
export type VoteBody = Static<typeof VoteBody>;

export const ProposalResponse = Type.Object(
  {
    id: Type.String(),
    storyId: Type.String(),
    basePacketHash: Type.String(),
    botId: Type.String(),
    status: Type.Union([Type.Literal('OPEN'), Type.Literal('ACCEPTED'), Type.Literal('REJECTED'), Type.Literal('STALE')]),
    changes: Type.Unknown(),
    rationale: Type.String(),
    votes: Type.Object({ accept: Type.Integer(), reject: Type.Integer() }),
    thresholds: Type.Object({ acceptVotes: Type.Integer(), rejectVotes: Type.Integer() }),
    resultVersion: Type.Union([Type.Integer(), Type.Null()]),
    resultPacketHash: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    resolvedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  {
    title: 'RevisionProposalResult',
    description:
      'A revision proposal as it stands after the write: its status (OPEN, ACCEPTED, REJECTED, STALE), the votes and thresholds, and once accepted the new version and packet hash.',
    examples: [revisionProposalResultExample],
  },
);
export type ProposalResponse = Static<typeof ProposalResponse>;
