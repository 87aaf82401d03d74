import { createHash } from 'node:crypto';
import { linkedHumanIdOf } from '../../identity/humans/proof-fields.js';
import { devHumanProof, type HumanProofFields } from '../../../sdk/index.js';

/** The Merkle root of the development proofs (any 32 bytes: the dev verifier checks only its own HMAC). */
const DEV_MERKLE_ROOT = `0x${'1'.repeat(64)}`;

/**
 * The development verifier's World ID proof of `action` by the person a test name stands for (the same name, the
 * same nullifier per action: the same person), for the development login and the proofs its readers give.
 */
export function devProofOf(person: string, action: string, signalHash?: string): HumanProofFields {
  const nullifierHash = `0x${createHash('sha256')
    .update(`dev-person:${person.normalize('NFC')}:${action}`)
    .digest('hex')}`;
  return devHumanProof({ provider: 'world_id', action, nullifierHash, merkleRoot: DEV_MERKLE_ROOT, ...(signalHash ? { signalHash } : {}) });
}

/**
 * The linkedHumanId the development login gives the person a test name stands for (the key an operator puts on
 * an allowlist for them): the one World ID's login action makes from their development proof.
 */
export function devLinkedHumanId(person: string, loginAction = 'svc-login'): string {
  return linkedHumanIdOf('world_id', devProofOf(person, loginAction).nullifier_hash);
}
