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
});
export type BotResponse = Static<typeof BotResponse>;
