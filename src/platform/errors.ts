/**
 * The one error type of the service. Business code throws AppError through the factories below; the error
 * handler (platform/error-handler.ts) turns it into the CONTRACT §1 body. Never branch on message text.
 */
export interface ErrorDetail {
  path?: string;
  header?: string;
  code?: string;
  message: string;
}

export interface AppErrorOptions {
  message?: string;
  details?: ErrorDetail[];
  nextAction?: string;
  docs?: string;
  retryAfterSeconds?: number;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  /** Short human label (`error` in the body). */
  readonly title: string;
  readonly details: ErrorDetail[] | undefined;
  readonly nextAction: string | undefined;
  readonly docs: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, code: string, title: string, options: AppErrorOptions = {}) {
    super(options.message ?? title);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.title = title;
    this.details = options.details;
    this.nextAction = options.nextAction;
    this.docs = options.docs;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const badRequest = (code: string, message: string, details?: ErrorDetail[]) =>
  new AppError(400, code, 'Bad request', { message, ...(details ? { details } : {}) });

export const validationFailed = (details: ErrorDetail[], message = 'The request is not valid') =>
  new AppError(400, 'VALIDATION_FAILED', 'Validation failed', { message, details });

export const unauthorized = (code: string, title: string, options?: AppErrorOptions) => new AppError(401, code, title, options);

export const forbidden = (code: string, message: string, options?: AppErrorOptions) =>
  new AppError(403, code, 'Forbidden', { message, ...options });

export const notFound = (what: string) => new AppError(404, 'NOT_FOUND', 'Not found', { message: `${what} not found` });

export const conflict = (code: string, message: string, options?: AppErrorOptions) =>
  new AppError(409, code, 'Conflict', { message, ...options });

export const replayDetected = () =>
  conflict('REPLAY_DETECTED', 'This nonce was already used', { nextAction: 'Sign the request again with a fresh nonce and timestamp' });

export const rateLimited = (retryAfterSeconds: number) =>
  new AppError(429, 'RATE_LIMITED', 'Too many requests', {
    message: `Rate limit reached; retry in ${retryAfterSeconds} s`,
    retryAfterSeconds,
    nextAction: 'Wait retryAfterSeconds before retrying',
  });

export const serviceUnavailable = (code: string, message: string) => new AppError(503, code, 'Service unavailable', { message });
