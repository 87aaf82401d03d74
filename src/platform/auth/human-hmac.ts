import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { canonicalize, canonicalQuery } from '../canonical-json.js';
import { appError, type ErrorDetail } from '../errors.js';

const NONCE = /^[A-Za-z0-9_-]{8,200}$/;
const SIGNATURE = /^[0-9a-f]{64}$/;
const TIMESTAMP = /^\d{1,16}$/;

export const signatureInvalid = (details: ErrorDetail[], message = 'The request signature is not valid') =>
  appError('SIGNATURE_INVALID', { message, details });

export interface VerifiedHumanSignature {
  nonce: string;
  /** The signed object: the body of a write, the query of a read. */
  signed: Record<string, unknown>;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Verifies a human signed write or read (docs/api-conventions.md, "Human signed requests") against the current and the previous secret.
 * Throws 503 when no secret is configured and 401 SIGNATURE_INVALID for every header or signature fault.
 * Does not record the nonce: the caller does that only after this succeeds.
 */
export function verifyHumanSignature(
  request: FastifyRequest,
  secrets: readonly string[],
  now: number,
  maxSkewMs: number,
): VerifiedHumanSignature {
  if (secrets.length === 0) throw appError('SIGNING_SECRET_UNAVAILABLE');
  const timestamp = header(request, 'x-timestamp');
  const nonce = header(request, 'x-nonce');
  const signature = header(request, 'x-signature');
  const details: ErrorDetail[] = [];
  if (timestamp === undefined) details.push({ header: 'x-timestamp', code: 'MISSING', message: 'x-timestamp is required' });
  else if (!TIMESTAMP.test(timestamp))
    details.push({ header: 'x-timestamp', code: 'MALFORMED', message: 'x-timestamp must be epoch milliseconds' });
  else if (Math.abs(now - Number(timestamp)) > maxSkewMs) {
    details.push({ header: 'x-timestamp', code: 'TIMESTAMP_SKEW', message: `x-timestamp must be within ${maxSkewMs} ms of server time` });
  }
  if (nonce === undefined) details.push({ header: 'x-nonce', code: 'MISSING', message: 'x-nonce is required' });
  else if (!NONCE.test(nonce))
    details.push({ header: 'x-nonce', code: 'MALFORMED', message: 'x-nonce must be 8 to 200 characters of A-Z a-z 0-9 _ -' });
  if (signature === undefined) details.push({ header: 'x-signature', code: 'MISSING', message: 'x-signature is required' });
  else if (!SIGNATURE.test(signature))
    details.push({ header: 'x-signature', code: 'MALFORMED', message: 'x-signature must be 64 lowercase hex characters' });
  if (details.length > 0 || !timestamp || !nonce || !signature) throw signatureInvalid(details, 'Invalid signed request headers');

  const [path, query = ''] = splitUrl(request.url);
  const signed: Record<string, unknown> =
    request.method === 'GET' ? canonicalQuery(query) : isPlainObject(request.body) ? request.body : {};
  // a body number a double does not hold exactly is signed as its digits (request.inexactNumbers)
  const canonical = request.method === 'GET' ? canonicalize(signed) : canonicalize(signed, request.inexactNumbers);
  const message = `${timestamp}.${nonce}.${request.method.toUpperCase()}.${path}.${canonical}`;
  const given = Buffer.from(signature, 'hex');
  const matches = secrets.some((secret) => timingSafeEqual(createHmac('sha256', secret).update(message).digest(), given));
  if (!matches) throw signatureInvalid([{ header: 'x-signature', code: 'MISMATCH', message: 'signature does not match the request' }]);
  return { nonce, signed };
}

export function splitUrl(url: string): [string, string] {
  const i = url.indexOf('?');
  return i === -1 ? [url, ''] : [url.slice(0, i), url.slice(i + 1)];
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SIGNATURE_HEADERS = ['x-signature', 'x-timestamp', 'x-nonce'] as const;
const ACTOR_PARAMETERS = ['actorId', 'verified', 'linkedHumanId'] as const;

/**
 * Whether a request on a public route that takes an optional signed reader tries to be one: it carries any
 * human signature header or names an actor in its query. Such a request is authenticated like every signed
 * read (a bad one is refused, never served as public), and it is personal: the public read cache neither
 * answers nor keeps it.
 */
export function carriesHumanSignature(request: FastifyRequest): boolean {
  if (SIGNATURE_HEADERS.some((name) => request.headers[name] !== undefined)) return true;
  const query = request.query;
  return isPlainObject(query) && ACTOR_PARAMETERS.some((name) => query[name] !== undefined);
}
