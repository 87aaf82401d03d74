import { Type, type Static } from '@sinclair/typebox';
import { CursorParam } from '../../platform/cursor.js';
import { DateTime, Nullable } from '../../platform/schemas.js';
import { PacketSchema } from '../common/schemas.js';
import { StringEnum } from '../../platform/string-enum.js';
import { CorrectorRoleSchema, PublicationStageSchema, ReviewStatusSchema, StoryStateSchema } from './schemas.js';
import {
  agentReviewExample,
  consensusSnapshotExample,
  machineRoomExample,
  revisionProposalExample,
  safetyTraceSummaryExample,
  storyConsensusExample,
  storySourcesExample,
  storyVersionsExample,
  tallyExample,
} from './examples.js';

/** Shapes of the evidence reads under a story: versions, sources, comments, flags, consensus, machine room. */

/** Exactly what the packet hash covers (one schema with the candidate answers). */
export const StoryPacket = PacketSchema;

export const VersionsResponse = Type.Object(
  {
    storyId: Type.String(),
    currentVersion: Type.Integer(),
    currentPacketHash: Type.String(),
    versions: Type.Array(
      Type.Object({
        version: Type.Integer(),
        packetHash: Type.String(),
        createdAt: DateTime,
        createdBy: Type.String({
          description: 'botId of the author (version 1) or of the accepted proposal; the content admin (identity key) of a correction',
        }),
        createdByKind: Type.Optional(
          StringEnum(['BOT', 'CONTENT_ADMIN'], {
            description: 'Who createdBy is: BOT (the author or the accepted proposal), or CONTENT_ADMIN (a correction)',
          }),
        ),
        proposalId: Nullable(Type.String()),
        current: Type.Boolean(),
        notices: Type.Array(
          Type.Object({
            kind: Type.Union([Type.Literal('CORRECTION'), Type.Literal('RETRACTION')]),
            note: Type.String({ description: 'The correction note, or the retraction reason' }),
            createdAt: DateTime,
            createdByRole: Type.Optional(CorrectorRoleSchema),
          }),
          { description: "A content admin's correction that made this version, or the retraction of the story at it" },
        ),
        packet: StoryPacket,
      }),
      { description: 'Oldest first' },
    ),
  },
  {
    title: 'StoryVersions',
    description:
      'Every packet version of a story, oldest first, with its hash, who made it, its correction and retraction notices and the packet.',
    examples: [storyVersionsExample],
  },
);
export type VersionsResponse = Static<typeof VersionsResponse>;

export const SourcesResponse = Type.Object(
  {
    storyId: Type.String(),
    sources: Type.Array(
      Type.Object({
        id: Type.String(),
        url: Type.String(),
        title: Nullable(Type.String()),
        publisher: Nullable(Type.String()),
        status: Type.String({ description: 'UNREVIEWED, VERIFIED, DISPUTED, UNRELIABLE or RETRACTED' }),
        sourceStatus: Type.String({
          description: "The source host's moderation status: UNRATED, TRUSTED, WATCH or BANNED (docs/moderation.md)",
        }),
        active: Type.Boolean({ description: 'false once a revision dropped the source from the packet' }),
        addedInVersion: Type.Integer(),
        createdAt: DateTime,
      }),
    ),
  },
  {
    title: 'StorySources',
    description:
      'Every source a story ever cited, with its status, its host status, whether the current packet still cites it and the version that added it.',
    examples: [storySourcesExample],
  },
);
export type SourcesResponse = Static<typeof SourcesResponse>;

/** Items per page of a per-story listing when the query names no limit. */
export const PAGE_LIMIT_DEFAULT = 50;

/** Unknown parameters are refused (400): the public read cache keys bodies by the validated query. */
export const PageQuery = Type.Object(
  {
    cursor: CursorParam,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: PAGE_LIMIT_DEFAULT })),
  },
  { additionalProperties: false },
);
export type PageQuery = Static<typeof PageQuery>;

const Tally = Type.Object(
  { count: Type.Integer(), weight: Type.Number() },
  { title: 'Tally', description: 'A count of reviews and their total weight.', examples: [tallyExample] },
);

export const ConsensusSnapshotSchema = Type.Object(
  {
    storyId: Type.String(),
    packetHash: Type.String(),
    version: Type.Integer(),
    attestations: Tally,
    objections: Tally,
    flags: Type.Object({ count: Type.Integer(), low: Type.Integer(), medium: Type.Integer(), high: Type.Integer() }),
    rewardVotes: Type.Object({
      count: Type.Integer(),
      up: Type.Integer(),
      down: Type.Integer(),
      weightUp: Type.Number(),
      weightDown: Type.Number(),
    }),
    reviewStatus: ReviewStatusSchema,
    publicationStage: PublicationStageSchema,
    storyState: Nullable(StoryStateSchema),
    graduation: Type.Object({ gateMet: Type.Boolean(), requiredHumanAction: Type.String(), humanActionRecorded: Type.Boolean() }),
    thresholds: Type.Object(
      {
        minAttestations: Type.Number(),
        contestedObjectionRatio: Type.Number(),
        minObjections: Type.Number(),
        graduationMinAttestations: Type.Number(),
      },
      { additionalProperties: true },
    ),
    clusterDiscount: Type.Optional(
      Type.Object(
        {
          discount: Type.Number(),
          analysisId: Nullable(Type.String()),
          applied: Type.Boolean(),
          attestations: Type.Integer(),
          weightRemoved: Type.Number(),
        },
        {
          description:
            "Present when integrity.clusterAttestationDiscount > 0: attestations from inside the author's flagged cartel cluster and the weight removed (docs/integrity.md)",
        },
      ),
    ),
    computedAt: DateTime,
  },
  {
    additionalProperties: true,
    title: 'ConsensusSnapshot',
    description:
      "The consensus computed for a story's packet: review counts and weights, flags and reward votes, the review status, stage and state, the graduation gate and the thresholds applied (and the cartel discount when it is on).",
    examples: [consensusSnapshotExample],
  },
);

export const ConsensusResponse = Type.Object(
  {
    storyId: Type.String(),
    packetHash: Type.String({ description: 'The packet the snapshot was computed for' }),
    computedAt: DateTime,
    currentPacket: Type.Boolean({ description: 'false when a revision replaced the packet after the snapshot' }),
    source: Type.Union([Type.Literal('stored'), Type.Literal('neutral')], {
      description: 'stored: the last recomputed snapshot; neutral: none recorded yet, zero counts under the current thresholds',
    }),
    snapshot: ConsensusSnapshotSchema,
  },
  {
    title: 'StoryConsensus',
    description:
      'The consensus snapshot of a story: stored by the last write, or neutral before any review; with the packet it was computed for and whether that packet is still current.',
    examples: [storyConsensusExample],
  },
);
export type ConsensusResponse = Static<typeof ConsensusResponse>;

export const AgentReview = Type.Object(
  {
    id: Type.String(),
    botId: Type.String(),
    verified: Type.Boolean(),
    kind: Type.Union([Type.Literal('ATTESTATION'), Type.Literal('OBJECTION')]),
    weight: Type.Integer(),
    confidence: Nullable(Type.Number()),
    note: Nullable(Type.String()),
    claimIds: Type.Array(Type.String()),
    evidence: Type.Unknown(),
    createdAt: DateTime,
  },
  {
    title: 'AgentReview',
    description:
      "A bot's attestation or objection on the current packet, with its weight, confidence, note, the claims concerned and its evidence.",
    examples: [agentReviewExample],
  },
);

export const RevisionProposal = Type.Object(
  {
    id: Type.String(),
    botId: Type.String(),
    status: Type.Union([Type.Literal('OPEN'), Type.Literal('ACCEPTED'), Type.Literal('REJECTED'), Type.Literal('STALE')]),
    basePacketHash: Type.String(),
    changes: Type.Unknown(),
    rationale: Type.String(),
    votes: Type.Object({ accept: Type.Integer(), reject: Type.Integer() }),
    resultVersion: Nullable(Type.Integer()),
    createdAt: DateTime,
    resolvedAt: Nullable(DateTime),
  },
  {
    title: 'RevisionProposal',
    description:
      "A bot's proposed revision of a story: the base packet hash, the changes and why, the votes, its status and, once accepted, the version it made.",
    examples: [revisionProposalExample],
  },
);

export const SafetyTraceSummary = Type.Object(
  {
    packetHash: Type.String(),
    decision: Type.Union([Type.Literal('ALLOW'), Type.Literal('QUARANTINE'), Type.Literal('BLOCK')]),
    categories: Type.Array(Type.Unknown()),
    rules: Type.Array(Type.Unknown()),
    scannedAt: DateTime,
  },
  {
    title: 'SafetyTraceSummary',
    description: 'The latest safety scan of the current packet: its decision, categories and rules.',
    examples: [safetyTraceSummaryExample],
  },
);

export const MachineRoomResponse = Type.Object(
  {
    storyId: Type.String(),
    version: Type.Integer(),
    packetHash: Type.String(),
    packet: StoryPacket,
    attestations: Type.Array(AgentReview, { description: 'On the current packet, oldest first' }),
    objections: Type.Array(AgentReview, { description: 'On the current packet, oldest first' }),
    olderPacketReviews: Type.Object(
      { attestations: Type.Integer(), objections: Type.Integer() },
      { description: 'Reviews of earlier packets of the story' },
    ),
    revisionProposals: Type.Array(RevisionProposal, { description: 'Every proposal of the story, oldest first' }),
    revisionThresholds: Type.Object({ acceptVotes: Type.Number(), rejectVotes: Type.Number() }),
    safetyTrace: Nullable(SafetyTraceSummary),
    consensus: ConsensusResponse,
  },
  {
    title: 'MachineRoom',
    description:
      'Everything a bot reviews a story on: the current packet, hash and version, the reviews, the revision proposals with their thresholds, the latest safety trace and the consensus.',
    examples: [machineRoomExample],
  },
);
export type MachineRoomResponse = Static<typeof MachineRoomResponse>;
