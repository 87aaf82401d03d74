import type * as AgentKitModule from '@worldcoin/agentkit';
import type { AgentkitPayload } from '@worldcoin/agentkit';
import { getAddress, isAddress, verifyMessage, type Hex } from 'viem';
import { appError, type AppError } from '../errors.js';

/**
 * The checks of an `agentproof` (the table of docs/bot-developers.md, "Verification: what the service checks"), each named by the `code` of
 * the `details` entry that reports it. NOT_VERIFIED (a `verified: true` write from a bot that never passed
 * /v1/agents/verify) and NONCE_REUSED (a proof already spent) are reported by the auth hook.
 */
export type AgentProofCheck =
  | 'MISSING'
  | 'MALFORMED'
  | 'NONCE_MISMATCH'
  | 'URI_MISMATCH'
  | 'EXPIRED'
  | 'SIGNATURE_INVALID'
  | 'UNREGISTERED'
  | 'WALLET_MISMATCH'
  | 'NOT_VERIFIED'
  | 'NONCE_REUSED';

/** 403 AGENTPROOF_VERIFICATION_FAILED with one `details` entry naming the check that failed. */
export function agentProofFailed(check: AgentProofCheck, message: string): AppError {
  return appError('AGENTPROOF_VERIFICATION_FAILED', {
    message: `agentproof: ${message}`,
    details: [{ header: 'agentproof', code: check, message }],
  });
}

/** What a valid proof proves: this wallet signed for this request. */
export interface ProvenWallet {
  /** EIP-55 checksummed address. */
  address: `0x${string}`;
  /** CAIP-2 chain id, e.g. `eip155:480`. */
  chainId: string;
}

export interface AgentProofRequest {
  /** The `agentproof` header as sent (base64 of the AgentKit JSON payload). */
  header: string | undefined;
  /** `x-agent-nonce` of the request, which the proof's nonce must equal. */
  nonce: string;
  /** The route path of the request (no query string). */
  path: string;
  /** WORLD_AGENTKIT_RESOURCE_ORIGINS: `uri` must be one of these followed by `path`. */
  origins: readonly string[];
  now: number;
  /** How old `issuedAt` may be, and how far ahead of the server clock it may be. */
  maxAgeMs: number;
}

type AgentKit = typeof AgentKitModule;
let agentKit: Promise<AgentKit> | undefined;

/**
 * @worldcoin/agentkit, loaded with the first proof: importing it costs about 1.4 s of CPU (siwe, zod, viem),
 * which every process start (service, worker, CLI, each test file) paid before, while most never see a proof.
 */
function loadAgentKit(): Promise<AgentKit> {
  agentKit ??= import('@worldcoin/agentkit');
  return agentKit;
}

function parse(kit: AgentKit, header: string): AgentkitPayload {
  try {
    return kit.parseAgentkitHeader(header);
  } catch (err) {
    // the package's message says which part failed (base64, JSON or which field); it never echoes secrets
    throw agentProofFailed('MALFORMED', err instanceof Error ? err.message : 'the header does not parse');
  }
}

function time(value: string, field: string): number {
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(ms)) throw agentProofFailed('MALFORMED', `${field} is not an ISO-8601 date-time`);
  return ms;
}

/** The SIWE message the wallet signed, rebuilt from the payload by the AgentKit package itself. */
function siweMessage(kit: AgentKit, payload: AgentkitPayload): string {
  try {
    return kit.formatSIWEMessage({ ...payload }, payload.address);
  } catch (err) {
    throw agentProofFailed('MALFORMED', err instanceof Error ? err.message : 'the SIWE message cannot be rebuilt');
  }
}

/**
 * Verifies an AgentKit proof for one request, in a fixed order: present, parses (AgentKit's own parser),
 * EVM EOA wallet, nonce = x-agent-nonce, uri = allowed origin + this exact route (AgentKit's validator compares
 * hosts only, so the path is checked here), time window, EIP-191 signature over the SIWE message AgentKit
 * rebuilds (recovered with viem, locally: no RPC call). The AgentBook lookup follows in the caller.
 */
export async function verifyAgentProof(input: AgentProofRequest): Promise<ProvenWallet> {
  if (input.header === undefined || input.header === '') throw agentProofFailed('MISSING', 'the agentproof header is required');
  const kit = await loadAgentKit();
  const payload = parse(kit, input.header);
  if (!/^eip155:\d{1,12}$/.test(payload.chainId)) throw agentProofFailed('MALFORMED', 'chainId must be an EVM chain, eip155:<number>');
  if (payload.type !== 'eip191' || (payload.signatureScheme !== undefined && payload.signatureScheme !== 'eip191'))
    throw agentProofFailed('MALFORMED', 'only EIP-191 signatures of EOA wallets are accepted (type "eip191")');
  if (!isAddress(payload.address, { strict: false })) throw agentProofFailed('MALFORMED', 'address is not an EVM address');
  if (!/^0x[0-9a-fA-F]+$/.test(payload.signature)) throw agentProofFailed('MALFORMED', 'signature must be 0x-prefixed hex');

  if (payload.nonce !== input.nonce) throw agentProofFailed('NONCE_MISMATCH', 'the proof nonce must equal x-agent-nonce');

  const origin = input.origins.find((o) => payload.uri === `${o}${input.path}`);
  if (!origin) {
    throw agentProofFailed(
      'URI_MISMATCH',
      `uri must be an allowed origin followed by ${input.path} (allowed: ${input.origins.join(', ')})`,
    );
  }
  if (payload.domain !== new URL(origin).host) throw agentProofFailed('URI_MISMATCH', `domain must be ${new URL(origin).host}`);

  const issuedAt = time(payload.issuedAt, 'issuedAt');
  if (input.now - issuedAt > input.maxAgeMs) throw agentProofFailed('EXPIRED', `issuedAt is more than ${input.maxAgeMs / 1000} s old`);
  if (issuedAt - input.now > input.maxAgeMs) throw agentProofFailed('EXPIRED', 'issuedAt is in the future');
  if (payload.expirationTime !== undefined && time(payload.expirationTime, 'expirationTime') <= input.now)
    throw agentProofFailed('EXPIRED', 'the proof has expired (expirationTime)');
  if (payload.notBefore !== undefined && time(payload.notBefore, 'notBefore') > input.now)
    throw agentProofFailed('EXPIRED', 'the proof is not valid yet (notBefore)');

  const message = siweMessage(kit, payload);
  let valid: boolean;
  try {
    valid = await verifyMessage({ address: getAddress(payload.address), message, signature: payload.signature as Hex });
  } catch {
    valid = false;
  }
  if (!valid) throw agentProofFailed('SIGNATURE_INVALID', 'the signature does not recover address for the SIWE message of this payload');
  return { address: getAddress(payload.address), chainId: payload.chainId };
}
