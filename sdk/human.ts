import { createHmac, randomBytes } from 'node:crypto';
import { canonicalJson, queryObject } from './canonical-json.js';

/** The actor fields every human signed write (body) or read (query) carries. */
export interface HumanActor {
  actorId: string;
  verified: boolean;
  linkedHumanId?: string;
}

export interface HumanSignInput {
  /** The HMAC secret shared between the front end and the service (HUMAN_SIGNING_SECRET). */
  secret: string;
  method: string;
  /** Path without the query string, exactly as it will be sent. */
  path: string;
  /** The JSON body of a write. */
  body?: unknown;
  /** The query of a signed GET; values are sent and signed as strings. */
  query?: Record<string, string | string[] | undefined>;
  timestamp?: number;
  nonce?: string;
}

export interface HumanSignedHeaders {
  [header: string]: string;
  'x-timestamp': string;
  'x-nonce': string;
  'x-signature': string;
}

/** A fresh nonce: 24 URL-safe characters. */
export function newNonce(): string {
  return randomBytes(18).toString('base64url');
}

/** The exact string that is HMAC'd: `timestamp.nonce.METHOD.path.canonicalBodyJson`. */
export function humanSigningString(timestamp: string, nonce: string, method: string, path: string, canonicalBody: string): string {
  return `${timestamp}.${nonce}.${method.toUpperCase()}.${path}.${canonicalBody}`;
}

/** Signs a human write (body) or read (query) and returns the three headers to send. */
export function signHumanRequest(input: HumanSignInput): HumanSignedHeaders {
  const timestamp = String(input.timestamp ?? Date.now());
  const nonce = input.nonce ?? newNonce();
  const canonicalBody =
    input.method.toUpperCase() === 'GET' ? canonicalJson(queryObject(input.query ?? {})) : canonicalJson(input.body ?? {});
  const signature = createHmac('sha256', input.secret)
    .update(humanSigningString(timestamp, nonce, input.method, input.path, canonicalBody))
    .digest('hex');
  return { 'x-timestamp': timestamp, 'x-nonce': nonce, 'x-signature': signature };
}

/** Builds the query string of a signed read in the same form that was signed. */
export function toQueryString(query: Record<string, string | string[] | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, val] of Object.entries(query)) {
    if (val === undefined) continue;
    for (const item of Array.isArray(val) ? val : [val]) params.append(key, item);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
