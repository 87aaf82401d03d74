import { createHmac } from 'node:crypto';
import { keccak256, stringToBytes, type Hex } from 'viem';

/**
 * What a front end needs for World ID login and human proofs: the proof fields IDKit hands over, the signal
 * hash the service binds a login to, and the dev proof format of the local service (HUMAN_PROOF_VERIFIER=dev).
 */

/** The proof fields of IDKit's success result (docs/api-conventions.md, "Human proofs"), sent as they are. */
export interface HumanProofFields {
  nullifier_hash: string;
  merkle_root: string;
  proof: string;
  verification_level: string;
}

export type HumanProofProvider = 'world_id' | 'passport' | 'phone';

/** POST /v1/session/worldid/challenge answers this: give IDKit `action` and `signal`. */
export interface WorldIdLoginChallenge {
  challengeId: string;
  signal: string;
  signalHash: string;
  action: string;
  expiresAt: string;
}

/** POST /v1/session/worldid/verify answers this: sign `linkedHumanId` with the actorId from now on. */
export interface WorldIdLoginSession {
  linkedHumanId: string;
  tier: 'L3';
  sessionExpiresAt: string;
}

/** POST /v1/worldid/verify and /v1/human-proof/verify answer this. */
export interface VerifiedHumanAction {
  id: string;
  action: string;
  provider: HumanProofProvider;
  linkedHumanId: string;
  tier: 'L2' | 'L3';
  sessionExpiresAt: string | null;
  createdAt: string;
}

const EVEN_HEX = /^0x(?:[0-9a-fA-F]{2})*$/;

/** World ID's hashToField of a signal (as IDKit computes it): keccak256 of its bytes >> 8, 0x + 64 hex. */
export function worldIdSignalHash(signal: string): string {
  const digest = keccak256(EVEN_HEX.test(signal) ? (signal as Hex) : stringToBytes(signal));
  return `0x${(BigInt(digest) >> 8n).toString(16).padStart(64, '0')}`;
}

/**
 * A proof the dev verifier accepts (docs/api-conventions.md, "Human proofs"): hex HMAC-SHA256, key `dev-human-proof`, over
 * `provider|action|nullifier_hash|merkle_root|signal_hash` (signal_hash empty when there is no signal). For
 * the local service and tests only: a production service refuses the dev verifier.
 */
export function devHumanProof(input: {
  provider: HumanProofProvider;
  action: string;
  nullifierHash: string;
  merkleRoot: string;
  signalHash?: string;
  verificationLevel?: string;
}): HumanProofFields {
  const proof = createHmac('sha256', 'dev-human-proof')
    .update(`${input.provider}|${input.action}|${input.nullifierHash}|${input.merkleRoot}|${input.signalHash ?? ''}`)
    .digest('hex');
  return {
    nullifier_hash: input.nullifierHash,
    merkle_root: input.merkleRoot,
    proof,
    verification_level: input.verificationLevel ?? 'orb',
  };
}
