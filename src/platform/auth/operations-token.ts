import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { appError } from '../errors.js';
import { matchesAny, presentedToken } from './api-key.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** True when the TCP peer itself is on this machine (never the x-forwarded-for address). */
export function isLoopbackPeer(request: FastifyRequest): boolean {
  const addr = request.socket.remoteAddress ?? '';
  return LOOPBACK.has(addr) || addr.startsWith('127.');
}

/**
 * The operations token (x-operations-token or Bearer). The local bypass needs
 * ALLOW_UNAUTHENTICATED_OPERATIONS=1 and a loopback peer; config refuses the flag when fail-closed.
 */
export function checkOperationsAccess(request: FastifyRequest, config: Config): void {
  if (config.allowUnauthenticatedOperations && !config.failClosed && isLoopbackPeer(request)) return;
  const token = presentedToken(request, 'x-operations-token');
  if (!token || !config.operationsToken || !matchesAny(token, [config.operationsToken])) {
    throw appError('OPERATIONS_ACCESS_REQUIRED');
  }
}
