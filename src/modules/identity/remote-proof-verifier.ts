import type { Config } from '../../config.js';
import { appError } from '../../platform/errors.js';
import type { HumanProof, HumanProofVerifier } from './proof-verifier.js';

const TIMEOUT_MS = 5_000;
const WORLD_ID_VERIFY_URL = 'https://developer.worldcoin.org/api/v2/verify';

/** Where a provider's proofs are checked: World ID's cloud verification API for its app, or the configured URL. */
function endpointOf(config: Config, provider: HumanProof['provider']): string | undefined {
  if (provider === 'world_id') {
    if (config.worldIdVerifyUrl) return config.worldIdVerifyUrl;
    return config.worldIdAppId ? `${WORLD_ID_VERIFY_URL}/${encodeURIComponent(config.worldIdAppId)}` : undefined;
  }
  return config.humanProofVerifyUrls[provider];
}

/**
 * HUMAN_PROOF_VERIFIER=remote: each provider's HTTP verifier, called with the proof fields in World ID's
 * request format (`nullifier_hash`, `merkle_root`, `proof`, `verification_level`, `action`, `signal_hash`).
 * 2xx with `success` not false is valid; a 4xx answer is an invalid proof (403, with the provider's code and
 * detail); a timeout, a network error or a 5xx is 503 (the proof was not judged, the client may retry).
 */
export function createRemoteProofVerifier(config: Config, fetchImpl: typeof fetch): HumanProofVerifier {
  return {
    kind: 'remote',
    async verify(proof) {
      const url = endpointOf(config, proof.provider);
      if (!url) throw appError('HUMAN_PROOF_VERIFIER_UNAVAILABLE', { message: `No verifier is configured for ${proof.provider}` });
      let res: Response;
      try {
        res = await fetchImpl(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            nullifier_hash: proof.nullifierHash,
            merkle_root: proof.merkleRoot,
            proof: proof.proof,
            verification_level: proof.verificationLevel,
            action: proof.action,
            signal_hash: proof.signalHash,
          }),
          redirect: 'error',
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch {
        throw appError('HUMAN_PROOF_VERIFIER_UNAVAILABLE', { message: `The ${proof.provider} verifier did not answer` });
      }
      const answer = (await res.json().catch(() => null)) as { success?: unknown; code?: unknown; detail?: unknown } | null;
      if (res.status >= 500) throw appError('HUMAN_PROOF_VERIFIER_UNAVAILABLE', { message: `The ${proof.provider} verifier failed (${res.status})` });
      if (res.ok && answer?.success !== false) return;
      const code = typeof answer?.code === 'string' ? answer.code : `http_${res.status}`;
      const detail = typeof answer?.detail === 'string' ? answer.detail.slice(0, 300) : 'the provider refused the proof';
      throw appError('HUMAN_PROOF_INVALID', { details: [{ path: '/proof', code, message: detail }] });
    },
  };
}
