import type { HumanProofFields } from '../../identity/humans/proof-body.js';
import { devProofOf } from '../site/dev-proof.js';
import type { SiteReader } from '../site/session.js';
import type { LoginMode } from '../site/visitor.js';
import type { ProofFormBody } from './forms.js';

/**
 * The World ID proof a console form carries for `action` (a control-plane approval, a ratification): with the
 * development login, the development proof of the logged-in test person, made by the server when the person
 * ticked "prove"; with World ID, the fields IDKit filled in the page for exactly this action. Null: no proof.
 */
export function proofOf(mode: LoginMode, reader: SiteReader, body: ProofFormBody, action: string): HumanProofFields | null {
  if (body.prove !== '1') return null;
  if (mode === 'dev') return { ...devProofOf(reader.devPerson ?? reader.linkedHumanId, action), action };
  const { nullifier_hash, merkle_root, proof, verification_level } = body;
  if (!nullifier_hash || !merkle_root || !proof || !verification_level) return null;
  return { nullifier_hash, merkle_root, proof, verification_level, action };
}
