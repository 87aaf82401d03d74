import { ERROR_CATALOGUE, type ErrorCode } from './error-catalogue.js';

export type { ErrorCode } from './error-catalogue.js';

/**
 * The one error type of the service. Every error is made from a code of the catalogue (error-catalogue.ts),
 * which fixes its status and label; the error handler (platform/error-handler.ts) turns it into the error body.
 * Never branch on message text: branch on `code`.
 */
export interface ErrorDetail {
  path?: string;
  header?: string;
  code?: string;
  message: string;
}

export interface AppErrorOptions {
  /** Replaces the catalogue's message with one about this case. */
  message?: string;
  details?: ErrorDetail[];
  nextAction?: string;
  docs?: string;
  retryAfterSeconds?: number;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  /** Short human label (`error` in the body). */
  readonly title: string;
  readonly details: ErrorDetail[] | undefined;
  readonly nextAction: string | undefined;
  readonly docs: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  /** `status` is taken from the catalogue; only INVALID_REQUEST carries the framework's own 4xx status. */
  constructor(code: ErrorCode, options: AppErrorOptions = {}, status?: number) {
    const entry = ERROR_CATALOGUE[code];
    super(options.message ?? entry.message);
    this.name = 'AppError';
    this.status = status ?? entry.status;
    this.code = code;
    this.title = entry.error;
    this.details = options.details;
    this.nextAction = options.nextAction ?? ('nextAction' in entry ? entry.nextAction : undefined);
    this.docs = options.docs;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** An error of the catalogue, optionally with a message, details or next step specific to this case. */
export const appError = (code: ErrorCode, options?: AppErrorOptions) => new AppError(code, options);

export const validationFailed = (details: ErrorDetail[], message?: string) =>
  appError('VALIDATION_FAILED', { details, ...(message ? { message } : {}) });

export const notFound = (what: string) => appError('NOT_FOUND', { message: `${what} not found` });

export const rateLimited = (retryAfterSeconds: number) =>
  appError('RATE_LIMITED', { message: `Rate limit reached; retry in ${retryAfterSeconds} s`, retryAfterSeconds });
