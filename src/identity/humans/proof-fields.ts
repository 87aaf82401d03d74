import { createHash } from 'node:crypto';
import { keccak256, stringToBytes, type Hex } from 'viem';
import type { ProofProvider } from './proof-verifier.js';

/** What a proof's fields mean to the service: World ID's signal hash, a provider's nullifier, a linked human's id. */

const EVEN_HEX = /^0x(?:[0-9a-fA-F]{2})*$/;

/**
 * World ID's hashToField (IDKit `hashToField`, the contracts' ByteHasher): keccak256 of the signal's bytes,
 * shifted right by 8 bits so that it fits the proof system's field, written 0x + 64 hex. Like IDKit, a signal
 * that is 0x-prefixed hex is hashed as the bytes it encodes, any other signal as its UTF-8 bytes.
 */
export function worldIdSignalHash(signal: string): string {
  const digest = keccak256(EVEN_HEX.test(signal) ? (signal as Hex) : stringToBytes(signal));
  return `0x${(BigInt(digest) >> 8n).toString(16).padStart(64, '0')}`;
}

/** A signal IDKit would read as hex but that is not whole bytes of hex: refused rather than guessed at. */
export const isAmbiguousSignal = (signal: string) => /^0x/i.test(signal) && !EVEN_HEX.test(signal);

/**
 * The one spelling of a nullifier. A World ID nullifier hash is a field element, and the verifier reads
 * `0x00ab…`, `0xAB` and `ab` as the same number: it is stored as 0x + 64 lowercase hex, so that one proof
 * cannot pass the nullifier check twice under two spellings, nor give one person two linked-human ids. Other
 * providers' nullifiers are opaque and kept as sent. Null when a World ID nullifier is not hex.
 */
export function canonicalNullifier(provider: ProofProvider, nullifierHash: string): string | null {
  if (provider !== 'world_id') return nullifierHash;
  if (!/^(0x)?[0-9a-fA-F]{1,64}$/.test(nullifierHash)) return null;
  return `0x${nullifierHash.replace(/^0x/, '').toLowerCase().padStart(64, '0')}`;
}

/** `h_` + the first 32 hex characters of SHA-256(`<provider>:<nullifier>`) (for World ID logins). */
export function linkedHumanIdOf(provider: ProofProvider, nullifierHash: string): string {
  return `h_${createHash('sha256').update(`${provider}:${nullifierHash}`).digest('hex').slice(0, 32)}`;
}
