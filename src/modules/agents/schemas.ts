import { Type, type Static } from '@sinclair/typebox';
import { BotId } from '../../platform/schemas.js';

export const JoinBody = Type.Object(
  {
    publicKey: Type.String({
      minLength: 43,
      maxLength: 44,
      pattern: '^[A-Za-z0-9_-]+={0,1}$',
      description: 'raw 32-byte Ed25519 public key, base64url',
    }),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    operatorContact: Type.Optional(Type.String({ maxLength: 320 })),
  },
  { additionalProperties: false },
);
export type JoinBody = Static<typeof JoinBody>;

export const BotResponse = Type.Object({
  botId: BotId,
  name: Type.String(),
  trustTier: Type.Union([Type.Literal('UNVERIFIED'), Type.Literal('VERIFIED')]),
  verified: Type.Boolean(),
  keyVersion: Type.Integer(),
  permissions: Type.Array(Type.String()),
  source: Type.Union([Type.Literal('SELF_SERVE'), Type.Literal('REGISTRY')]),
  createdAt: Type.Optional(Type.String({ format: 'date-time' })),
  linkedHumanId: Type.Optional(Type.String({ description: 'derived by the service from the AgentBook human id; never sent by clients' })),
  walletAddress: Type.Optional(Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description: 'the AgentKit wallet bound at verification' })),
  walletChainId: Type.Optional(Type.String({ description: 'CAIP-2 chain of the bound wallet, e.g. eip155:480' })),
  verifiedAt: Type.Optional(Type.String({ format: 'date-time' })),
});
export type BotResponse = Static<typeof BotResponse>;

/** POST /v1/agents/verify: the bot to verify; the proof travels in the `agentproof` header. */
export const VerifyBody = Type.Object({ botId: BotId }, { additionalProperties: false });
export type VerifyBody = Static<typeof VerifyBody>;
