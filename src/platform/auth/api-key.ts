import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { appError } from '../errors.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Presented credential from `x-api-key` or `Authorization: Bearer`. */
export function presentedToken(request: FastifyRequest, headerName: string): string | undefined {
  const direct = request.headers[headerName];
  if (typeof direct === 'string' && direct) return direct;
  const auth = request.headers.authorization;
  if (typeof auth === 'string' && /^Bearer\s+/i.test(auth)) return auth.replace(/^Bearer\s+/i, '').trim() || undefined;
  return undefined;
}

/** Constant-time membership: compares fixed-length digests so neither length nor content leaks. */
export function matchesAny(token: string, allowed: readonly string[]): boolean {
  const given = digest(token);
  let ok = false;
  for (const candidate of allowed) ok = timingSafeEqual(given, digest(candidate)) || ok;
  return ok;
}

/**
 * Public read-only API keys (PUBLIC_API_KEYS). With none configured the routes are open in development and
 * closed (401) when the deployment is fail-closed.
 */
export function checkApiKey(request: FastifyRequest, keys: readonly string[], failClosed: boolean): void {
  if (keys.length === 0 && !failClosed) return;
  const token = presentedToken(request, 'x-api-key');
  if (!token) {
    throw appError('API_KEY_REQUIRED');
  }
  if (keys.length === 0 || !matchesAny(token, keys)) {
    throw appError('API_KEY_INVALID');
  }
}
