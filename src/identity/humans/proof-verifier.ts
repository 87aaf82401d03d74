import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.js';
import { appError } from '../../platform/errors.js';
import { createRemoteProofVerifier } from './remote-proof-verifier.js';

/** Providers of human proofs: World ID is primary (L3), passport and phone secondary (L2). */
export const PROOF_PROVIDERS = ['world_id', 'passport', 'phone'] as const;
export type ProofProvider = (typeof PROOF_PROVIDERS)[number];

export const TIER_OF_PROVIDER = { world_id: 'L3', passport: 'L2', phone: 'L2' } as const satisfies Record<ProofProvider, 'L2' | 'L3'>;

/** The proof fields, with the signal hash the proof is bound to (empty when none). */
export interface HumanProof {
  provider: ProofProvider;
  nullifierHash: string;
  merkleRoot: string;
  proof: string;
  verificationLevel: string;
  action: string;
  signalHash: string;
}

/**
 * Checks a human proof; resolves when it is valid for its provider, action and signal, and throws an
 * AppError otherwise: 403 HUMAN_PROOF_INVALID, 409 HUMAN_PROOF_ALREADY_VERIFIED (the provider says the person
 * used up the action), or 503 HUMAN_PROOF_VERIFIER_UNAVAILABLE (the provider could not judge it). It does not
 * record the nullifier: the caller does, in the transaction that uses it.
 */
export interface HumanProofVerifier {
  readonly kind: 'dev' | 'remote';
  verify(proof: HumanProof): Promise<void>;
}

/**
 * The dev proof ("Human proofs" in docs/api-conventions.md): hex HMAC-SHA256, key `dev-human-proof`, over
 * provider|action|nullifier|root|signal.
 */
export function devProof(p: Omit<HumanProof, 'proof' | 'verificationLevel'>): string {
  return createHmac('sha256', 'dev-human-proof')
    .update(`${p.provider}|${p.action}|${p.nullifierHash}|${p.merkleRoot}|${p.signalHash}`)
    .digest('hex');
}

/** HUMAN_PROOF_VERIFIER=dev (refused in production by config.ts): lets the local service and tests run offline. */
export function createDevProofVerifier(): HumanProofVerifier {
  return {
    kind: 'dev',
    async verify(proof) {
      const expected = Buffer.from(devProof(proof));
      const given = Buffer.from(proof.proof);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw appError('HUMAN_PROOF_INVALID', {
          details: [{ path: '/proof', message: 'the proof does not verify for this provider, action, nullifier, root and signal' }],
        });
      }
    },
  };
}

/** The verifier the configuration names (HUMAN_PROOF_VERIFIER). */
export function createProofVerifier(config: Config, fetchImpl: typeof fetch = fetch): HumanProofVerifier {
  return config.humanProofVerifier === 'dev' ? createDevProofVerifier() : createRemoteProofVerifier(config, fetchImpl);
}
