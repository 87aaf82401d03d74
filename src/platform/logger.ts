import { randomUUID } from 'node:crypto';
import type { FastifyServerOptions } from 'fastify';
import type { IncomingMessage } from 'node:http';

/** Header and body paths that must never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-operations-token"]',
  'req.headers["x-signature"]',
  'req.headers["x-agent-signature"]',
  'req.headers.agentproof',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers["x-operations-token"]',
  'headers["x-signature"]',
  'headers["x-agent-signature"]',
  'headers.agentproof',
  'headers.cookie',
  '*.secret',
  '*.privateKey',
  '*.signature',
  '*.proof',
];

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A request id: the caller's x-request-id when it is a sane token, else a new UUID. */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * What a log line keeps of an error: its kind, code, message and stack. Database drivers attach the SQL, its
 * bound parameters and the failing row (`query`, `params`, `parameters`, `detail`, `where`: PGlite and
 * node-postgres both do), which can hold anything a client sent; none of it is logged.
 */
export function serializeError(err: unknown): { [key: string]: unknown; type: string; message: string; stack: string } {
  if (!(err instanceof Error)) return { type: typeof err, message: String(err), stack: '' };
  const e = err as Error & { code?: unknown; severity?: unknown; routine?: unknown; cause?: unknown };
  return {
    type: e.name,
    message: e.message,
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    ...(typeof e.severity === 'string' ? { severity: e.severity } : {}),
    ...(typeof e.routine === 'string' ? { routine: e.routine } : {}),
    stack: e.stack ?? '',
    ...(e.cause !== undefined ? { cause: serializeError(e.cause) } : {}),
  };
}

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      err: serializeError,
      // method and path only: query strings may carry actor ids; headers are never logged
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, path: req.url.split('?')[0], ip: req.ip }),
    },
  };
}
