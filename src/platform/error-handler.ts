import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorDetail } from './errors.js';

/** The CONTRACT §1 error body. */
export interface ErrorBody {
  error: string;
  code?: string;
  message?: string;
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
const FASTIFY_CODES: Record<string, { status: number; code: string; title: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', title: 'Unsupported media type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'INVALID_BODY', title: 'Bad request' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'MALFORMED_JSON', title: 'Bad request' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', title: 'Payload too large' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'MALFORMED_JSON', title: 'Bad request' },
  // raised by the router before any hook runs (see frameworkErrorHandler)
  FST_ERR_BAD_URL: { status: 400, code: 'MALFORMED_URL', title: 'Bad request' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'URI_TOO_LONG', title: 'URI too long' },
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
  if (fe?.validation) return new AppError(400, 'VALIDATION_FAILED', 'Validation failed', { message: 'The request is not valid', details: validationDetails(fe) });
  if (fe instanceof SyntaxError || fe?.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new AppError(400, 'MALFORMED_JSON', 'Bad request', { message: 'The body is not valid JSON' });
  }
  const known = fe?.code ? FASTIFY_CODES[fe.code] : undefined;
  if (known) return new AppError(known.status, known.code, known.title, { message: fe.message });
  const status = typeof fe?.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) return new AppError(status, 'INVALID_REQUEST', 'Bad request', { message: fe.message });
  return new AppError(500, 'INTERNAL_ERROR', 'Internal error', { message: 'Something went wrong on our side; the request id identifies it' });
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
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, title, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'REQUEST_TIMEOUT', 'Request timeout', 'The request was not received in time']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'HEADERS_TOO_LARGE', 'Request header fields too large', 'The request headers exceed the allowed size']
        : [400, 'MALFORMED_REQUEST', 'Bad request', 'The request is not valid HTTP/1.1 (bytes outside ASCII in the target must be percent-encoded)'];
  const requestId = randomUUID();
  const body = JSON.stringify({ error: title, code, message, requestId });
  this.log.info({ reqId: requestId, code, status, parserCode: error.code }, 'request rejected by the HTTP parser');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    const appError = normalizeError(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: appError.code, status: appError.status }, 'request rejected');
    return sendError(request, reply, appError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, new AppError(404, 'NOT_FOUND', 'Not found', { message: `No route ${request.method} ${request.url.split('?')[0]}` })),
  );
}
