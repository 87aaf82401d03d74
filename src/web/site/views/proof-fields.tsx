import type { Lang } from '../../../platform/i18n/index.js';
import { useVisitor } from '../visitor.js';

/** The IDKit result fields a World ID proof comes back with (filled by the page's script). */
export const PROOF_FIELDS = ['nullifier_hash', 'merkle_root', 'proof', 'verification_level'] as const;

/**
 * "Prove that I am a unique person" on a form: with the development login, a checkbox (the server makes the
 * development proof of the logged-in test person); with World ID, the same checkbox, shown by the page's
 * script, which runs IDKit for `action` (for a flag, `flag_high_severity:` + the chosen claim) and fills the
 * hidden proof fields before the form is sent. Without JavaScript the World ID proof cannot be made, so the
 * checkbox stays hidden and the form is sent without it.
 */
export function ProofFields(props: { lang: Lang; action: string; label: string }) {
  const { login, worldIdAppId } = useVisitor();
  const id = `prove-${props.action.replace(/[^a-z0-9]/gi, '-')}`;
  if (login === 'dev') {
    return (
      <p class="check">
        <input type="checkbox" id={id} name="prove" value="1" />
        <label for={id}>{props.label}</label>
      </p>
    );
  }
  return (
    <div class="check" data-idkit-action={props.action} data-app-id={worldIdAppId ?? ''} hidden>
      <input type="checkbox" id={id} name="prove" value="1" />
      <label for={id}>{props.label}</label>
      {PROOF_FIELDS.map((name) => (
        <input type="hidden" name={name} value="" />
      ))}
    </div>
  );
}
