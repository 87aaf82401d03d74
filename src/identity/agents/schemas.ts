import { Type, type Static } from '@sinclair/typebox';
import { BotId } from '../../platform/schemas.js';
import { botExample, botKeyExample, joinAgentExample } from './examples.js';

const PublicKey = Type.String({
  minLength: 43,
  maxLength: 44,
  pattern: '^[A-Za-z0-9_-]+={0,1}$',
  description: 'raw 32-byte Ed25519 public key, base64url',
});

export const JoinBody = Type.Object(
  {
    publicKey: PublicKey,
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    operatorContact: Type.Optional(Type.String({ maxLength: 320 })),
  },
  {
    title: 'JoinAgentRequest',
    description:
      'Body of a self-serve join: the Ed25519 public key that signs this very request, and the name, description and contact shown for the bot.',
    examples: [joinAgentExample],
    additionalProperties: false,
  },
);
export type JoinBody = Static<typeof JoinBody>;

/** Adds a signing key to a joined bot: signed by one of its active keys, and `keyProof` signed by the new key. */
export const AddKeyBody = Type.Object(
  {
    botId: BotId,
    addKey: Type.Object(
      {
        publicKey: PublicKey,
        keyProof: Type.String({
          pattern: '^[A-Za-z0-9_-]{86}$',
          description: 'Ed25519 signature by the new key of "svc-agent-key-v1:{aud}.{botId}.{publicKey}", base64url',
        }),
      },
      { additionalProperties: false },
    ),
  },
  {
    title: 'AddAgentKeyRequest',
    description:
      "Body that adds a signing key to a joined bot: signed by one of its active keys, with `keyProof`, the new key's signature over its own registration.",
    additionalProperties: false,
  },
);
export type AddKeyBody = Static<typeof AddKeyBody>;

/** Revokes a signing key of a joined bot: signed by one of its active keys (the revoked one included). */
export const RevokeKeyBody = Type.Object(
  { botId: BotId, revokeKeyVersion: Type.Integer({ minimum: 1, maximum: 999999 }) },
  {
    title: 'RevokeAgentKeyRequest',
    description: 'Body that revokes one signing key version of a joined bot, signed by one of its active keys.',
    additionalProperties: false,
  },
);
export type RevokeKeyBody = Static<typeof RevokeKeyBody>;

/** POST /v1/agents/join: a join (self-certifying), or a key change of a joined bot (signed by its key). */
export const JoinOrKeyChangeBody = Type.Union([JoinBody, AddKeyBody, RevokeKeyBody]);
export type JoinOrKeyChangeBody = Static<typeof JoinOrKeyChangeBody>;

const BotKey = Type.Object(
  {
    version: Type.Integer(),
    publicKey: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    revokedAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  {
    title: 'BotKey',
    description: 'One signing key of a bot, by version; a revoked key keeps its record with `revokedAt`.',
    examples: [botKeyExample],
  },
);

export const BotResponse = Type.Object(
  {
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
    keys: Type.Optional(Type.Array(BotKey, { description: 'after a key change: every key of the bot, revoked ones included' })),
  },
  {
    title: 'Bot',
    description:
      'A bot as the service registered it: its id (derived from its first key), trust tier, permissions and key version; after verification also the AgentKit wallet and the linkedHumanId derived from it. Answered by the join and verify routes.',
    examples: [botExample],
  },
);
export type BotResponse = Static<typeof BotResponse>;

/** POST /v1/agents/verify: the bot to verify; the proof travels in the `agentproof` header. */
export const VerifyBody = Type.Object(
  { botId: BotId },
  {
    title: 'VerifyAgentRequest',
    description: 'Body of a bot verification: the bot to verify; the World AgentKit proof travels in the `agentproof` header.',
    additionalProperties: false,
  },
);
export type VerifyBody = Static<typeof VerifyBody>;

/** Documents the proof header of POST /v1/agents/verify (the auth hook has checked it before validation). */
export const VerifyHeaders = Type.Object({
  agentproof: Type.String({
    description:
      'World AgentKit proof: base64 of the AgentKit JSON payload (SIWE fields + EIP-191 signature) for this origin and route, nonce = x-agent-nonce',
  }),
});
