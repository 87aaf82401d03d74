import { Type, type Static } from '@sinclair/typebox';
import { BotId, DateTime, HumanActorBody } from '../../platform/schemas.js';
import { botOwnerChallengeExample, botOwnerClaimedExample, botOwnerClaimRequestExample, botOwnerUnlinkedExample } from './examples.js';

/** Bot owners: the person a verified bot's payouts go to. */

const ADDRESS = '^0x[0-9a-fA-F]{40}$';
const ChallengeId = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' });

export const OwnerChallengeBody = Type.Object(
  {
    ...HumanActorBody,
    botId: BotId,
    walletAddress: Type.String({
      pattern: ADDRESS,
      description: 'The wallet the person will sign with: it must be the wallet the bot verified with (any letter case)',
    }),
  },
  {
    additionalProperties: false,
    title: 'BotOwnerChallengeRequest',
    description: 'Body that starts claiming a verified bot: the bot and the wallet it verified with.',
  },
);
export type OwnerChallengeBody = Static<typeof OwnerChallengeBody>;

export const OwnerChallenge = Type.Object(
  {
    challengeId: Type.String(),
    botId: BotId,
    ownerLinkedHumanId: Type.String({ description: 'The person who will own the bot: the signed linkedHumanId' }),
    walletAddress: Type.String({ description: 'The wallet the bot verified with, EIP-55 checksummed' }),
    walletChainId: Type.String({ description: 'Its CAIP-2 chain, e.g. eip155:480' }),
    message: Type.String({
      description:
        "The EIP-4361 (SIWE) message the bot's wallet signs with personal_sign (EIP-191), byte for byte: it names the bot " +
        'and the person (statement and resources), the nonce and the expiry',
    }),
    consentMessage: Type.String({
      description:
        'What an active Ed25519 key of the bot signs to consent: svc-agent-owner-v1:{aud}.{challengeId}.{botId}.{ownerLinkedHumanId}.{walletAddress} ' +
        '(SDK: botOwnerConsentMessage rebuilds it from the fields, signBotOwnerConsent signs it)',
    }),
    expiresAt: DateTime,
  },
  {
    title: 'BotOwnerChallenge',
    description:
      "A one-time challenge to claim a bot: the SIWE message the bot's wallet signs and the consent message an active key of the bot signs; valid 5 minutes.",
    examples: [botOwnerChallengeExample],
  },
);
export type OwnerChallenge = Static<typeof OwnerChallenge>;

export const OwnerClaimBody = Type.Object(
  {
    ...HumanActorBody,
    challengeId: ChallengeId,
    walletSignature: Type.String({
      pattern: '^0x[0-9a-fA-F]{130}$',
      description: "65-byte EIP-191 signature of the challenge's message by the bot's wallet, hex",
    }),
    botConsent: Type.Object(
      {
        keyVersion: Type.Integer({ minimum: 1, maximum: 999999, description: 'The version of the bot key that signed' }),
        signature: Type.String({
          pattern: '^[A-Za-z0-9_-]{86}$',
          description: "Ed25519 signature of the challenge's consentMessage by that key, base64url",
        }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    title: 'BotOwnerClaimRequest',
    description: "Body of a claim: the challenge, the wallet's EIP-191 signature of its message and the bot's Ed25519 consent.",
    examples: [botOwnerClaimRequestExample],
  },
);
export type OwnerClaimBody = Static<typeof OwnerClaimBody>;

const Ownership = {
  botId: BotId,
  ownerLinkedHumanId: Type.String(),
  actorId: Type.String({ description: 'The actor that claimed (the front end user)' }),
  walletAddress: Type.String({ description: 'The wallet proven by the claim: the ownership counts while the bot stays verified with it' }),
  walletChainId: Type.String(),
  claimedAt: DateTime,
};

export const OwnerClaimed = Type.Object(
  {
    ...Ownership,
    payoutsAssigned: Type.Integer({
      description: "The bot's payouts that waited for a payable owner and are now the owner's (whatever their state)",
    }),
    payoutsReleased: Type.Integer({ description: 'Of those, the ones now PAYABLE' }),
  },
  {
    title: 'BotOwnerClaimed',
    description:
      "A bot's ownership as claimed: the bot, the owner, the wallet proven, and how many waiting payouts the claim gave the owner.",
    examples: [botOwnerClaimedExample],
  },
);
export type OwnerClaimed = Static<typeof OwnerClaimed>;

export const OwnerUnlinkBody = Type.Object(
  { ...HumanActorBody, botId: BotId },
  { additionalProperties: false, title: 'BotOwnerUnlinkRequest', description: 'Body that gives up a bot: the bot id.' },
);
export type OwnerUnlinkBody = Static<typeof OwnerUnlinkBody>;

export const OwnerUnlinked = Type.Object(
  { ...Ownership, unlinkedAt: DateTime },
  {
    title: 'BotOwnerUnlinked',
    examples: [botOwnerUnlinkedExample],
    description: "The ownership that ended; payouts already the owner's stay theirs",
  },
);
export type OwnerUnlinked = Static<typeof OwnerUnlinked>;
