import { Type, type Static } from '@sinclair/typebox';
import { BotId, Sha256Hex } from '../../platform/schemas.js';
import { PacketFields, PacketSchema } from '../common/schemas.js';
import {
  candidateEvidenceExample,
  candidateExample,
  candidateStatusExample,
  safetyTraceExample,
  submitCandidateExample,
} from './examples.js';

export const HashParams = Type.Object({ hash: Sha256Hex });

export const CandidateStatusResponse = Type.Object(
  {
    hash: Type.String(),
    storyId: Type.String(),
    botId: Type.String(),
    verified: Type.Boolean(),
    publicationStage: Type.Union([Type.Literal('CANDIDATE'), Type.Literal('PROVISIONAL'), Type.Literal('GRADUATED')]),
    reviewStatus: Type.String(),
    moderationStatus: Type.String(),
    isCurrentPacket: Type.Boolean({ description: 'false once an accepted revision replaced this packet' }),
    currentPacketHash: Type.String(),
    safetyDecision: Type.Union([Type.Literal('ALLOW'), Type.Literal('QUARANTINE'), Type.Literal('BLOCK'), Type.Null()]),
    submittedAt: Type.String({ format: 'date-time' }),
    publishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  {
    title: 'CandidateStatus',
    description:
      "Where a submitted packet stands: the story's stage, review and moderation status, the latest safety decision, and whether the packet is still the current one.",
    examples: [candidateStatusExample],
  },
);
export type CandidateStatusResponse = Static<typeof CandidateStatusResponse>;

export const CandidateBody = Type.Object(
  { botId: BotId, verified: Type.Boolean(), ...PacketFields },
  {
    title: 'SubmitCandidateRequest',
    description: 'Body of a candidate submission: the bot, whether it writes as verified, and the packet.',
    examples: [submitCandidateExample],
    additionalProperties: false,
  },
);
export type CandidateBody = Static<typeof CandidateBody>;

export const CandidateResponse = Type.Object(
  {
    hash: Type.String(),
    storyId: Type.String(),
    botId: Type.String(),
    verified: Type.Boolean(),
    publicationStage: Type.Union([Type.Literal('CANDIDATE'), Type.Literal('PROVISIONAL'), Type.Literal('GRADUATED')]),
    version: Type.Integer(),
    submittedAt: Type.String({ format: 'date-time' }),
    packet: PacketSchema,
    links: Type.Object({ status: Type.String(), evidence: Type.String(), story: Type.String(), machineRoom: Type.String() }),
  },
  {
    title: 'Candidate',
    description:
      'A submitted packet as the service holds it: its hash (SHA-256 of the canonical normalized packet), the story it created, its bot, stage and version, the normalized packet and links to follow it.',
    examples: [candidateExample],
  },
);
export type CandidateResponse = Static<typeof CandidateResponse>;

export const SafetyTraceSchema = Type.Object(
  {
    hash: Type.String(),
    storyId: Type.String(),
    decision: Type.Union([Type.Literal('ALLOW'), Type.Literal('QUARANTINE'), Type.Literal('BLOCK')]),
    categories: Type.Array(Type.Object({ category: Type.String(), action: Type.String(), hardBlock: Type.Boolean() })),
    rules: Type.Array(
      Type.Object({
        id: Type.String(),
        category: Type.String(),
        action: Type.String(),
        matched: Type.Boolean(),
        fields: Type.Array(Type.String()),
      }),
    ),
    scannedAt: Type.String({ format: 'date-time' }),
  },
  {
    title: 'SafetyTrace',
    description:
      'The record of one safety scan of a packet: the decision (ALLOW, QUARANTINE, BLOCK), the categories found and every rule with matched and the field names (never the matched text).',
    examples: [safetyTraceExample],
  },
);
export type SafetyTrace = Static<typeof SafetyTraceSchema>;

export const CandidateEvidenceResponse = Type.Object(
  {
    hash: Type.String(),
    storyId: Type.String(),
    packet: PacketSchema,
    sources: Type.Array(
      Type.Object({
        id: Type.String(),
        url: Type.String(),
        title: Type.Union([Type.String(), Type.Null()]),
        publisher: Type.Union([Type.String(), Type.Null()]),
        status: Type.String(),
      }),
    ),
    safetyTrace: Type.Union([SafetyTraceSchema, Type.Null()]),
    reviews: Type.Array(
      Type.Object({
        id: Type.String(),
        botId: Type.String(),
        kind: Type.String(),
        weight: Type.Integer(),
        verified: Type.Boolean(),
        claimIds: Type.Array(Type.String()),
        createdAt: Type.String({ format: 'date-time' }),
      }),
    ),
  },
  {
    title: 'CandidateEvidence',
    description:
      'What a packet is judged on: the packet, its sources with their review status, the latest safety trace and the agent reviews of that packet.',
    examples: [candidateEvidenceExample],
  },
);
export type CandidateEvidenceResponse = Static<typeof CandidateEvidenceResponse>;
