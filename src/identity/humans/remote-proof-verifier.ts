import type { Config } from '../../config.js';
import { appError, type AppError } from '../../platform/errors.js';
import type { HumanProof, HumanProofVerifier } from './proof-verifier.js';

const WORLD_ID_VERIFY_URL = 'https://developer.worldcoin.org/api/v2/verify';

/** Provider codes that mean "this person already used up this action" (World ID: the action's max_verifications). */
const ALREADY_VERIFIED = new Set(['max_verifications_reached', 'already_verified']);
/** Provider codes that mean "not judged, try again": the prover failed, or the verifier does not know our app. */
const NOT_JUDGED = new Set(['prover_error', 'not_found', 'internal_api_error', 'rate_limited']);

/** Where a provider's proofs are checked: World ID's cloud verification API for its app, or the configured URL. */
function endpointOf(config: Config, provider: HumanProof['provider']): string | undefined {
  if (provider === 'world_id') {
    if (config.worldIdVerifyUrl) return config.worldIdVerifyUrl;
    return config.worldIdAppId ? `${WORLD_ID_VERIFY_URL}/${encodeURIComponent(config.worldIdAppId)}` : undefined;
  }
  return config.humanProofVerifyUrls[provider];
}

/**
 * The request body, in World ID's format (`POST /api/v2/verify/{app_id}`). `signal_hash` is left out when the
 * proof has no signal: World ID then applies its default, hashToField(""). Secondary providers get the same
 * fields plus `provider`.
 */
function requestBody(proof: HumanProof): string {
  return JSON.stringify({
    ...(proof.provider === 'world_id' ? {} : { provider: proof.provider }),
    nullifier_hash: proof.nullifierHash,
    merkle_root: proof.merkleRoot,
    proof: proof.proof,
    verification_level: proof.verificationLevel,
    action: proof.action,
    ...(proof.signalHash ? { signal_hash: proof.signalHash } : {}),
  });
}

interface ProviderAnswer {
  success?: unknown;
  code?: unknown;
  detail?: unknown;
  attribute?: unknown;
}

const unavailable = (provider: string, why: string, retryAfterSeconds?: number) =>
  appError('HUMAN_PROOF_VERIFIER_UNAVAILABLE', {
    message: `The ${provider} verifier ${why}`,
    ...(retryAfterSeconds ? { retryAfterSeconds } : {}),
  });

function retryAfter(res: Response): number | undefined {
  const value = Number(res.headers.get('retry-after'));
  return Number.isInteger(value) && value > 0 && value <= 3600 ? value : undefined;
}

/**
 * What a provider's answer means. World ID answers 200 `{ success: true, … }` for a valid proof and 4xx
 * `{ code, detail, attribute }` otherwise (invalid_proof, invalid_merkle_root, root_too_old, invalid_action,
 * max_verifications_reached, …); 404 `not_found` means it does not know the app.
 */
function judge(provider: string, res: Response, answer: ProviderAnswer | null): AppError | null {
  const code = typeof answer?.code === 'string' ? answer.code.slice(0, 100) : undefined;
  if (res.status === 429) return unavailable(provider, 'is rate limiting us', retryAfter(res) ?? 60);
  if (res.status >= 500) return unavailable(provider, `failed (HTTP ${res.status})`);
  if (res.ok) {
    if (answer?.success === true) return null;
    if (answer?.success !== false) return unavailable(provider, 'gave an answer the service does not understand');
  }
  if (code && NOT_JUDGED.has(code)) return unavailable(provider, `could not judge the proof (${code})`);
  if (res.status >= 300 && res.status < 400) return unavailable(provider, `redirected (HTTP ${res.status})`);
  const detail = typeof answer?.detail === 'string' ? answer.detail.slice(0, 300) : 'the provider refused the proof';
  if (code && ALREADY_VERIFIED.has(code))
    return appError('HUMAN_PROOF_ALREADY_VERIFIED', { details: [{ path: '/nullifier_hash', code, message: detail }] });
  const attribute = typeof answer?.attribute === 'string' && /^[a-z_]{1,40}$/.test(answer.attribute) ? answer.attribute : 'proof';
  return appError('HUMAN_PROOF_INVALID', { details: [{ path: `/${attribute}`, code: code ?? `http_${res.status}`, message: detail }] });
}

/**
 * HUMAN_PROOF_VERIFIER=remote: each provider's HTTP verifier. A valid proof resolves; a refused one is 403
 * HUMAN_PROOF_INVALID (with the provider's code), a person who used up the action 409
 * HUMAN_PROOF_ALREADY_VERIFIED; a timeout (HUMAN_PROOF_VERIFY_TIMEOUT_MS, covering the whole answer), a network
 * error, a 429 or 5xx, or an answer that is not the provider's format is 503 HUMAN_PROOF_VERIFIER_UNAVAILABLE:
 * the proof was not judged and the client may retry.
 */
export function createRemoteProofVerifier(config: Config, fetchImpl: typeof fetch): HumanProofVerifier {
  return {
    kind: 'remote',
    async verify(proof) {
      const url = endpointOf(config, proof.provider);
      if (!url) throw unavailable(proof.provider, 'is not configured (WORLDID_APP_ID or HUMAN_PROOF_<PROVIDER>_VERIFY_URL)');
      const signal = AbortSignal.timeout(config.humanProofVerifyTimeoutMs);
      let res: Response;
      let text: string;
      try {
        res = await fetchImpl(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: requestBody(proof),
          redirect: 'manual',
          signal,
        });
        text = await res.text();
      } catch (err) {
        const timedOut = signal.aborted || (err as Error).name === 'TimeoutError';
        throw unavailable(
          proof.provider,
          timedOut ? `did not answer within ${config.humanProofVerifyTimeoutMs} ms` : 'could not be reached',
        );
      }
      let answer: ProviderAnswer | null;
      try {
        const parsed: unknown = JSON.parse(text);
        answer = typeof parsed === 'object' && parsed !== null ? (parsed as ProviderAnswer) : null;
      } catch {
        answer = null;
      }
      const refusal = judge(proof.provider, res, answer);
      if (refusal) throw refusal;
    },
  };
}
