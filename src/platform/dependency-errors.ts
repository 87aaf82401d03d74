import { appError, type AppError } from './errors.js';

/**
 * Recognizes the errors of an unreachable PostgreSQL or Redis, so that they answer 503 with the contract body
 * instead of 500: the request was not accepted, and the same request (signed again) may be retried once the
 * server is back. Everything else stays an internal error.
 */

/** Socket-level failures, from node-postgres, ioredis or the resolver. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

/** SQLSTATEs of a server that is going away or not taking connections (class 08, shutdown, startup, full). */
const PG_UNAVAILABLE = /^(08...|57P01|57P02|57P03|53300)$/;

/** Messages node-postgres gives a lost or refused connection (it sets no code on them). */
const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Query read timeout',
  'database ping timed out',
];

function isNetwork(error: { code?: unknown; errors?: unknown }): boolean {
  if (typeof error.code === 'string' && NETWORK_CODES.has(error.code)) return true;
  // Node's happy-eyeballs connect rejects with an AggregateError of per-address failures
  return Array.isArray(error.errors) && error.errors.some((e) => e && typeof e === 'object' && isNetwork(e as { code?: unknown }));
}

/** ioredis: a command given up after maxRetriesPerRequest while disconnected, or cut by a closing connection. */
function isRedisUnavailable(error: Error): boolean {
  return (
    error.name === 'MaxRetriesPerRequestError' ||
    error.message === 'Connection is closed.' ||
    error.message.startsWith("Stream isn't writeable")
  );
}

/** The 503 for an unreachable dependency, or null when `error` is something else. */
export function dependencyUnavailable(error: unknown): AppError | null {
  if (!(error instanceof Error)) return null;
  if (isRedisUnavailable(error)) return appError('REDIS_UNAVAILABLE', { retryAfterSeconds: 2 });
  const code = (error as { code?: unknown }).code;
  if (
    isNetwork(error as { code?: unknown; errors?: unknown }) ||
    (typeof code === 'string' && PG_UNAVAILABLE.test(code)) ||
    PG_MESSAGES.some((m) => error.message.includes(m))
  )
    return appError('DATABASE_UNAVAILABLE', { retryAfterSeconds: 2 });
  return null;
}
