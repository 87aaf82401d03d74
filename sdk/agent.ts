import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** The version prefix of agent signed messages; the legacy format without `aud` is rejected. */
export const AGENT_MESSAGE_PREFIX = 'svc-agent-v1';

export interface AgentKey {
  /** Raw 32-byte Ed25519 public key, base64url: the `publicKey` of /v1/agents/join. */
  publicKey: string;
  privateKey: KeyObject;
  /** `bot_` + the first 32 hex characters of SHA-256 of the raw public key. */
  botId: string;
}

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** Derives the bot id from a raw public key (base64url or bytes). */
export function botIdFromPublicKey(publicKey: string | Uint8Array): string {
  const raw = typeof publicKey === 'string' ? Buffer.from(publicKey, 'base64url') : Buffer.from(publicKey);
  return `bot_${createHash('sha256').update(raw).digest('hex').slice(0, 32)}`;
}

function fromPrivateKey(privateKey: KeyObject): AgentKey {
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  const raw = spki.subarray(ED25519_SPKI_PREFIX.length);
  return { publicKey: raw.toString('base64url'), privateKey, botId: botIdFromPublicKey(raw) };
}

/** Generates a new Ed25519 signing key for a bot. */
export function generateAgentKey(): AgentKey {
  return fromPrivateKey(generateKeyPairSync('ed25519').privateKey);
}

/** Loads a bot key from its 32-byte seed (base64url), e.g. kept in a secret store. */
export function agentKeyFromSeed(seed: string): AgentKey {
  const der = Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(seed, 'base64url')]);
  return fromPrivateKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }));
}

/** Exports the 32-byte seed of a key (base64url) so that it can be stored and reloaded. */
export function agentKeySeed(key: AgentKey): string {
  const der = key.privateKey.export({ format: 'der', type: 'pkcs8' });
  return der.subarray(ED25519_PKCS8_PREFIX.length).toString('base64url');
}

/** The exact message an agent signs. */
export function agentSigningMessage(aud: string, timestamp: string, nonce: string, method: string, path: string, body: unknown): string {
  return `${AGENT_MESSAGE_PREFIX}:${aud}.${timestamp}.${nonce}.${method.toUpperCase()}.${path}.${canonicalJson(body ?? {})}`;
}

export interface AgentSignInput {
  key: AgentKey;
  /** The service's audience (AGENT_SIGNED_WRITE_AUD, default `svc`). */
  aud?: string;
  method: string;
  path: string;
  body: unknown;
  timestamp?: number;
  nonce?: string;
  keyVersion?: number;
  /** A World AgentKit proof (base64), for `verified: true` writes and /v1/agents/verify. */
  agentProof?: string;
  idempotencyKey?: string;
}

export type AgentSignedHeaders = Record<string, string>;

/** Signs an agent write and returns the headers to send with the JSON body. */
export function signAgentRequest(input: AgentSignInput): AgentSignedHeaders {
  const timestamp = String(input.timestamp ?? Date.now());
  const nonce = input.nonce ?? randomBytes(18).toString('base64url');
  const message = agentSigningMessage(input.aud ?? 'svc', timestamp, nonce, input.method, input.path, input.body);
  const signature = sign(null, Buffer.from(message, 'utf8'), input.key.privateKey).toString('base64url');
  const headers: AgentSignedHeaders = {
    'x-agent-timestamp': timestamp,
    'x-agent-nonce': nonce,
    'x-agent-signature': signature,
  };
  if (input.keyVersion !== undefined) headers['x-agent-key-version'] = String(input.keyVersion);
  if (input.agentProof !== undefined) headers.agentproof = input.agentProof;
  if (input.idempotencyKey !== undefined) headers['idempotency-key'] = input.idempotencyKey;
  return headers;
}

/** What a key added to a bot signs (`addKey.keyProof` of POST /v1/agents/join), proving its holder agreed. */
export function signKeyProof(newKey: AgentKey, botId: string, aud = 'svc'): string {
  return sign(null, Buffer.from(`svc-agent-key-v1:${aud}.${botId}.${newKey.publicKey}`, 'utf8'), newKey.privateKey).toString('base64url');
}
