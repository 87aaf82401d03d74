import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { canonicalize } from '../canonical-json.js';
import { appError, type ErrorDetail } from '../errors.js';
import { isPlainObject, splitUrl } from './human-hmac.js';

export const AGENT_MESSAGE_PREFIX = 'svc-agent-v1';
const NONCE_LENGTH = { min: 8, max: 200 };
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

export const agentHeadersInvalid = (details: ErrorDetail[]) => appError('AGENT_SIGNED_HEADERS_INVALID', { details });

export const agentSignatureInvalid = (message?: string) => appError('AGENT_SIGNATURE_INVALID', message ? { message } : {});

export interface AgentSignedHeaders {
  timestamp: string;
  nonce: string;
  signature: Buffer;
  keyVersion: number | undefined;
  agentProof: string | undefined;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Parses the x-agent-* headers; every bad header gets its own details entry. */
export function parseAgentHeaders(request: FastifyRequest, now: number, maxSkewMs: number): AgentSignedHeaders {
  const details: ErrorDetail[] = [];
  const timestamp = header(request, 'x-agent-timestamp');
  const nonce = header(request, 'x-agent-nonce');
  const signatureText = header(request, 'x-agent-signature');
  const keyVersionText = header(request, 'x-agent-key-version');
  let signature = Buffer.alloc(0);
  let keyVersion: number | undefined;

  if (timestamp === undefined) details.push({ header: 'x-agent-timestamp', code: 'MISSING', message: 'x-agent-timestamp is required' });
  else if (!/^\d{1,16}$/.test(timestamp))
    details.push({ header: 'x-agent-timestamp', code: 'MALFORMED', message: 'x-agent-timestamp must be decimal epoch milliseconds' });
  else if (Math.abs(now - Number(timestamp)) > maxSkewMs) {
    details.push({
      header: 'x-agent-timestamp',
      code: 'TIMESTAMP_SKEW',
      message: `x-agent-timestamp must be within ${maxSkewMs} ms of server time`,
    });
  }
  if (nonce === undefined) details.push({ header: 'x-agent-nonce', code: 'MISSING', message: 'x-agent-nonce is required' });
  else if (nonce.length < NONCE_LENGTH.min || nonce.length > NONCE_LENGTH.max) {
    details.push({ header: 'x-agent-nonce', code: 'OUT_OF_RANGE', message: 'x-agent-nonce must be 8 to 200 characters' });
  } else if (!/^[\x21-\x7e]+$/.test(nonce))
    details.push({ header: 'x-agent-nonce', code: 'MALFORMED', message: 'x-agent-nonce must be printable ASCII without spaces' });
  if (signatureText === undefined) details.push({ header: 'x-agent-signature', code: 'MISSING', message: 'x-agent-signature is required' });
  else if (!BASE64URL.test(signatureText))
    details.push({ header: 'x-agent-signature', code: 'MALFORMED', message: 'x-agent-signature must be base64url' });
  else {
    signature = Buffer.from(signatureText, 'base64url');
    if (signature.length !== 64)
      details.push({
        header: 'x-agent-signature',
        code: 'OUT_OF_RANGE',
        message: `x-agent-signature must decode to 64 bytes, got ${signature.length}`,
      });
  }
  if (keyVersionText !== undefined) {
    if (!/^[1-9]\d{0,5}$/.test(keyVersionText))
      details.push({ header: 'x-agent-key-version', code: 'MALFORMED', message: 'x-agent-key-version must be a positive integer' });
    else keyVersion = Number(keyVersionText);
  }
  if (details.length > 0 || timestamp === undefined || nonce === undefined) throw agentHeadersInvalid(details);
  return { timestamp, nonce, signature, keyVersion, agentProof: header(request, 'agentproof') };
}

/** The exact bytes an agent signs for this request. */
export function agentMessageFor(request: FastifyRequest, aud: string, headers: AgentSignedHeaders): Buffer {
  const [path] = splitUrl(request.url);
  const body = isPlainObject(request.body) ? request.body : {};
  return Buffer.from(
    `${AGENT_MESSAGE_PREFIX}:${aud}.${headers.timestamp}.${headers.nonce}.${request.method.toUpperCase()}.${path}.${canonicalize(body, request.inexactNumbers)}`,
    'utf8',
  );
}

/** Parsed keys by their base64url text, least recently used first out. */
const keyCache = new LRUCache<string, KeyObject>({ max: 10_000 });

/**
 * Parses a raw 32-byte Ed25519 key (base64url) into a KeyObject, cached: parsing a key per request halves
 * throughput. The cache holds only public keys and is safe to lose. The key is given to node:crypto as a JWK
 * (`OKP`, `Ed25519`), which takes the raw bytes as they are; the same key wrapped as DER (SPKI) goes through
 * OpenSSL's decoders, about 85 µs a key against 10.
 */
export function publicKeyObject(publicKey: string): KeyObject | null {
  const cached = keyCache.get(publicKey);
  if (cached) return cached;
  const raw = Buffer.from(publicKey, 'base64url');
  if (raw.length !== 32) return null;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  } catch {
    return null;
  }
  keyCache.set(publicKey, key);
  return key;
}

export function verifyAgentSignature(publicKey: KeyObject, message: Buffer, signature: Buffer): boolean {
  try {
    return verify(null, message, publicKey, signature);
  } catch {
    return false;
  }
}
