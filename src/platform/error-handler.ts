import type { RouteTable } from './route-table.js';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dependencyUnavailable } from './dependency-errors.js';
import { ERROR_CATALOGUE, type CatalogueEntry } from './error-catalogue.js';
import { AppError, appError, type ErrorCode, type ErrorDetail } from './errors.js';

/** The error body (docs/api-conventions.md, "Errors"). */
export interface ErrorBody {
  error: string;
  code: string;
  message: string;
  details?: ErrorDetail[];
  nextAction?: string;
  docs?: string;
  requestId: string;
  retryAfterSeconds?: number;
}

interface AjvIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

function validationDetails(error: FastifyError & { validation?: AjvIssue[]; validationContext?: string }): ErrorDetail[] {
  const where = error.validationContext ?? 'body';
  const prefix = where === 'body' ? '' : `/${where}`;
  return (error.validation ?? []).map((issue) => {
    let path = issue.instancePath;
    if (issue.keyword === 'required') path = `${path}/${String(issue.params.missingProperty)}`;
    if (issue.keyword === 'additionalProperties') path = `${path}/${String(issue.params.additionalProperty)}`;
    const message = issue.keyword === 'additionalProperties' ? 'unknown property' : (issue.message ?? 'is not valid');
    return { path: `${prefix}${path}` || '/', message };
  });
}

/** Maps Fastify's own client errors to a stable code. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_BODY',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
  // raised by the router before any hook runs (see frameworkErrorHandler)
  FST_ERR_BAD_URL: 'MALFORMED_URL',
  FST_ERR_MAX_PARAM_LENGTH: 'URI_TOO_LONG',
};

export function toErrorBody(request: FastifyRequest, error: AppError): ErrorBody {
  const body: ErrorBody = { error: error.title, code: error.code, message: error.message, requestId: request.id };
  if (error.details) body.details = error.details;
  if (error.nextAction) body.nextAction = error.nextAction;
  if (error.docs) body.docs = error.docs;
  if (error.retryAfterSeconds !== undefined) body.retryAfterSeconds = error.retryAfterSeconds;
  return body;
}

/** Converts anything thrown into an AppError; 5xx details are logged, never answered. */
export function normalizeError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fe = error as FastifyError & { validation?: AjvIssue[]; validationContext?: string };
  if (fe?.validation) {
    // a query whose only fault is its cursor: the cursor is not one this service issued, whatever its text
    if (fe.validationContext === 'querystring' && fe.validation.length > 0 && fe.validation.every((i) => i.instancePath === '/cursor'))
      return appError('INVALID_CURSOR');
    return appError('VALIDATION_FAILED', { details: validationDetails(fe) });
  }
  if (fe instanceof SyntaxError || fe?.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return appError('MALFORMED_JSON');
  }
  const known = fe?.code ? FASTIFY_CODES[fe.code] : undefined;
  if (known) return appError(known, { message: fe.message });
  const status = typeof fe?.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) return new AppError('INVALID_REQUEST', { message: fe.message }, status);
  return dependencyUnavailable(error) ?? appError('INTERNAL_ERROR');
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  return reply.code(error.status).type('application/json; charset=utf-8').send(toErrorBody(request, error));
}

/**
 * Fastify option `frameworkErrors`: the router's own refusals (a path with invalid percent-encoding, a path
 * parameter over maxParamLength) happen before routing and hooks, so without this they would answer Fastify's
 * default body without `requestId` or `x-request-id`.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const appError = normalizeError(error);
  request.log.info({ code: appError.code, status: appError.status }, 'request rejected');
  reply.header('x-request-id', request.id);
  return sendError(request, reply, appError);
}

/**
 * Fastify option `clientErrorHandler`: what Node's HTTP parser refuses (a request target with bytes outside
 * ASCII or control characters, oversized headers, a timeout) never becomes a request, so no hook runs. It
 * still answers the contract body under a fresh request id, then closes the connection as Node does. The
 * error is not logged: its raw packet may hold credentials.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 'REQUEST_TIMEOUT'
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? requestLineOverflow(error.rawPacket, (this.server as { maxHeaderSize?: number }).maxHeaderSize ?? 16_384)
          ? 'URI_TOO_LONG'
          : 'HEADERS_TOO_LARGE'
        : error.code === 'HPE_INVALID_HEADER_TOKEN'
          ? 'MALFORMED_HEADER'
          : 'MALFORMED_REQUEST';
  const { status, error: title, message, nextAction } = ERROR_CATALOGUE[code] as CatalogueEntry;
  const requestId = randomUUID();
  const faulty = code === 'MALFORMED_HEADER' ? faultyHeader(error.rawPacket) : undefined;
  const body = JSON.stringify({
    error: title,
    code,
    message,
    ...(faulty ? { details: [{ header: faulty, code: 'MALFORMED', message: `${faulty} is not a valid header` }] } : {}),
    ...(nextAction ? { nextAction } : {}),
    requestId,
  });
  this.log.info({ reqId: requestId, code, status, parserCode: error.code }, 'request rejected by the HTTP parser');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** A header field name: an HTTP token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** What a header value may hold: visible ASCII and Latin-1, spaces and tabs (RFC 9110 field-value). */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The name of the first header of the refused request whose value holds a byte HTTP does not allow, when its name
 * is a token (so that it can be said back); never its value, which may be a credential.
 */
function faultyHeader(rawPacket: unknown): string | undefined {
  if (!Buffer.isBuffer(rawPacket)) return undefined;
  const head = rawPacket.toString('latin1').split('\r\n\r\n')[0] ?? '';
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    if (!TOKEN.test(name)) return undefined;
    if (!FIELD_VALUE.test(line.slice(colon + 1))) return name.toLowerCase();
  }
  return undefined;
}

/**
 * Node's parser counts the request line in its header limit (HTTP_MAX_HEADER_BYTES). When the data it stopped
 * in starts a request whose first line alone is over that limit, the request target is what was too long:
 * 414, not 431. (A target split over several reads is still 431: the limit holds either way.)
 */
function requestLineOverflow(rawPacket: unknown, maxHeaderSize: number): boolean {
  if (!Buffer.isBuffer(rawPacket) || !/^[A-Z]{3,10} [^ ]/.test(rawPacket.subarray(0, 16).toString('latin1'))) return false;
  const endOfLine = rawPacket.indexOf('\n');
  return endOfLine === -1 || endOfLine >= maxHeaderSize;
}

/**
 * The error handler, and the answer for a request no route serves: 405 with `Allow` when the path is known
 * (`routes`) but the method is not one of its; else the reader site's HTML page for a browser's unknown page
 * (`notFoundPage`), or the 404 body.
 */
export function registerErrorHandling(
  app: FastifyInstance,
  options: {
    routes?: RouteTable;
    /** Answers an unknown path itself (the reader site's HTML page), or returns undefined for the JSON body. */
    notFoundPage?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;
  } = {},
) {
  app.setErrorHandler((error, request, reply) => {
    const appError = normalizeError(error);
    if (appError.code === 'DATABASE_UNAVAILABLE' || appError.code === 'REDIS_UNAVAILABLE')
      request.log.warn({ code: appError.code, err: { message: (error as Error).message } }, 'a dependency is unreachable');
    else if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: appError.code, status: appError.status }, 'request rejected');
    return sendError(request, reply, appError);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = options.routes?.allowedMethods(path);
    if (!allowed)
      return (
        options.notFoundPage?.(request, reply) ??
        sendError(request, reply, appError('NOT_FOUND', { message: `No route ${request.method} ${path}` }))
      );
    reply.header('allow', allowed.join(', '));
    return sendError(
      request,
      reply,
      appError('METHOD_NOT_ALLOWED', { message: `${path} has no method ${request.method}: use ${allowed.join(', ')}` }),
    );
  });
}
