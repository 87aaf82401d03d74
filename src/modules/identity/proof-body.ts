import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../platform/string-enum.js';
import { PROOF_PROVIDERS, type HumanProof, type ProofProvider } from './proof-verifier.js';

/** Proofs are hex (World ID: 0x…) or base64 text; nothing else can be one. */
const ProofText = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_.:+/=-]+$' });

/**
 * The proof fields of CONTRACT §5 carried in the body of an operation that needs its own verified human
 * action (governance ratification, control-plane approval: CONTRACT §9). `provider` defaults to world_id.
 */
export const HumanProofBody = {
  provider: Type.Optional(StringEnum(PROOF_PROVIDERS, { description: 'world_id (default, L3), passport or phone (L2)' })),
  nullifier_hash: ProofText(200),
  merkle_root: ProofText(200),
  proof: ProofText(8192),
  verification_level: Type.String({ minLength: 1, maxLength: 50, pattern: '^[A-Za-z0-9_-]+$' }),
  action: Type.String({ minLength: 1, maxLength: 300 }),
};

export interface HumanProofFields {
  provider?: ProofProvider;
  nullifier_hash: string;
  merkle_root: string;
  proof: string;
  verification_level: string;
  action: string;
}

/** The proof a body carries, for the verifier; these operations have no signal (empty signal hash). */
export function proofOf(body: HumanProofFields): HumanProof {
  return {
    provider: body.provider ?? 'world_id',
    nullifierHash: body.nullifier_hash,
    merkleRoot: body.merkle_root,
    proof: body.proof,
    verificationLevel: body.verification_level,
    action: body.action,
    signalHash: '',
  };
}
