import { Type, type Static } from '@sinclair/typebox';
import { Sha256Hex } from '../../platform/schemas.js';

export const HashParams = Type.Object({ hash: Sha256Hex });

export const CandidateStatusResponse = Type.Object({
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
});
export type CandidateStatusResponse = Static<typeof CandidateStatusResponse>;
