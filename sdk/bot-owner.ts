import { sign } from 'node:crypto';
import { parseSiweMessage } from 'viem/siwe';
import type { AgentKey } from './agent.js';
import { signWalletMessage, walletAddress, type AgentWallet } from './agentkit.js';

/**
 * Owning a bot (docs/rewards.md "Owning a bot"): the person a verified bot's payouts go to claims it with a
 * signature of the bot's wallet and the bot's consent. The front end asks the service for a challenge
 * (`ServiceClient.botOwnerChallenge`), the bot's developer signs it (`signBotOwnerClaim`, or the command
 * `newsroom-agent owner-consent`), and the front end sends the claim (`ServiceClient.claimBotOwner`).
 */

/** POST /v1/rewards/bot-owners/challenge answers this. */
export interface BotOwnerChallenge {
  challengeId: string;
  botId: string;
  ownerLinkedHumanId: string;
  walletAddress: string;
  walletChainId: string;
  /** The EIP-4361 (SIWE) message the bot's wallet signs (personal_sign). */
  message: string;
  /** What an active key of the bot signs (Ed25519): botOwnerConsentMessage of the other fields. */
  consentMessage: string;
  expiresAt: string;
}

/** The signatures a claim carries (POST /v1/rewards/bot-owners/claim, with the actor fields). */
export interface BotOwnerSignatures {
  challengeId: string;
  walletSignature: `0x${string}`;
  botConsent: { keyVersion: number; signature: string };
}

/** POST /v1/rewards/bot-owners/claim answers this. */
export interface BotOwnerClaimed {
  botId: string;
  ownerLinkedHumanId: string;
  actorId: string;
  walletAddress: string;
  walletChainId: string;
  claimedAt: string;
  payoutsAssigned: number;
  payoutsReleased: number;
}

/** What the bot's key signs to consent to the owner: `svc-agent-owner-v1:{aud}.{challengeId}.{botId}.{owner}.{walletAddress}`. */
export function botOwnerConsentMessage(
  challenge: Pick<BotOwnerChallenge, 'challengeId' | 'botId' | 'ownerLinkedHumanId' | 'walletAddress'>,
  aud = 'svc',
): string {
  return `svc-agent-owner-v1:${aud}.${challenge.challengeId}.${challenge.botId}.${challenge.ownerLinkedHumanId}.${challenge.walletAddress}`;
}

/**
 * Checks that a challenge is what the bot means to sign before it signs anything: for this bot, the SIWE message
 * for this wallet, naming this bot and this owner, for the claim route, and not expired. Throws an Error saying what
 * does not match. `expectedOwner`, when given, is the person the developer means to make the owner.
 */
export function checkBotOwnerChallenge(
  challenge: BotOwnerChallenge,
  expected: { botId: string; walletAddress?: string; expectedOwner?: string; now?: number },
): void {
  const fail = (what: string) => {
    throw new Error(`this ownership challenge ${what}: do not sign it`);
  };
  if (challenge.botId !== expected.botId) fail(`is for the bot ${challenge.botId}, not ${expected.botId}`);
  if (expected.expectedOwner !== undefined && challenge.ownerLinkedHumanId !== expected.expectedOwner)
    fail(`makes ${challenge.ownerLinkedHumanId} the owner, not ${expected.expectedOwner}`);
  let siwe: ReturnType<typeof parseSiweMessage>;
  try {
    siwe = parseSiweMessage(challenge.message);
  } catch {
    return fail('has no SIWE message');
  }
  if (siwe.address?.toLowerCase() !== challenge.walletAddress.toLowerCase()) fail('names another wallet in its message');
  if (expected.walletAddress !== undefined && challenge.walletAddress.toLowerCase() !== expected.walletAddress.toLowerCase())
    fail(`is for the wallet ${challenge.walletAddress}, not ${expected.walletAddress}`);
  const resources = siwe.resources ?? [];
  if (
    !resources.includes(`urn:newsroom:bot:${challenge.botId}`) ||
    !resources.includes(`urn:newsroom:human:${challenge.ownerLinkedHumanId}`)
  )
    fail('does not name this bot and this owner in its message');
  if (siwe.requestId !== challenge.challengeId) fail('names another challenge in its message');
  if (!siwe.uri?.endsWith('/v1/rewards/bot-owners/claim')) fail('is not for the ownership claim');
  if (siwe.expirationTime && siwe.expirationTime.getTime() <= (expected.now ?? Date.now())) fail('has expired');
}

/** The bot's consent: its key signs the challenge's consent message (Ed25519, base64url). */
export function signBotOwnerConsent(
  key: AgentKey,
  challenge: BotOwnerChallenge,
  options: { aud?: string; keyVersion?: number } = {},
): BotOwnerSignatures['botConsent'] {
  if (challenge.botId !== key.botId) throw new Error(`this ownership challenge is for the bot ${challenge.botId}, not ${key.botId}`);
  const message = botOwnerConsentMessage(challenge, options.aud);
  return { keyVersion: options.keyVersion ?? 1, signature: sign(null, Buffer.from(message, 'utf8'), key.privateKey).toString('base64url') };
}

/**
 * Both signatures of a claim, after checkBotOwnerChallenge: the wallet's EIP-191 signature of the SIWE message
 * and the bot key's consent. The wallet must be the one the bot verified with.
 */
export async function signBotOwnerClaim(input: {
  key: AgentKey;
  wallet: AgentWallet;
  challenge: BotOwnerChallenge;
  aud?: string;
  keyVersion?: number;
  expectedOwner?: string;
}): Promise<BotOwnerSignatures> {
  checkBotOwnerChallenge(input.challenge, {
    botId: input.key.botId,
    walletAddress: walletAddress(input.wallet),
    ...(input.expectedOwner !== undefined ? { expectedOwner: input.expectedOwner } : {}),
  });
  return {
    challengeId: input.challenge.challengeId,
    walletSignature: await signWalletMessage(input.wallet, input.challenge.message),
    botConsent: signBotOwnerConsent(input.key, input.challenge, {
      ...(input.aud !== undefined ? { aud: input.aud } : {}),
      ...(input.keyVersion !== undefined ? { keyVersion: input.keyVersion } : {}),
    }),
  };
}
