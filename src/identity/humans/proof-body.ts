import { Type } from '@sinclair/typebox';
import type { Tx } from '../../platform/db/database.js';
import type { IdentityTables } from '../tables.js';
import { validationFailed } from '../../platform/errors.js';
import { StringEnum } from '../../platform/string-enum.js';
import { recordVerifiedHumanAction } from './human-actions.js';
import { PROOF_PROVIDERS, type HumanProof, type ProofProvider } from './proof-verifier.js';
import { markActionConsumed } from './repository.js';

/** Proofs are hex (World ID: 0x…) or base64 text; nothing else can be one. */
const ProofText = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_.:+/=-]+$' });

/**
 * The proof fields carried in the body of an operation that needs its own verified human
 * action (governance ratification, control-plane approval). `provider` defaults to world_id.
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

/**
 * The proof a body carries, for the verifier, when it is bound to `action` (400 naming /action otherwise).
 * These operations have no signal (empty signal hash).
 */
export function boundProof(body: HumanProofFields, action: string): HumanProof {
  if (body.action !== action) throw validationFailed([{ path: '/action', message: `the proof's action must be ${action}` }]);
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

/**
 * Spends a verified proof inside the caller's transaction: records its nullifier as an action of `provedBy`
 * (409 NULLIFIER_REUSED when the provider, action and nullifier were used before) and marks it consumed by
 * `consumedBy` at once. If the operation is refused later in the same transaction, nothing is spent.
 * Returns the verified action's id.
 */
export async function spendProof(
  tx: Tx<IdentityTables>,
  proof: HumanProof,
  provedBy: string,
  consumedBy: string,
  at: Date,
): Promise<string> {
  const id = await recordVerifiedHumanAction(tx, {
    action: proof.action,
    linkedHumanId: provedBy,
    provider: proof.provider,
    nullifierHash: proof.nullifierHash,
    at,
  });
  await markActionConsumed(tx, id, consumedBy, at);
  return id;
}
