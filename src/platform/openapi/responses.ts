import type { AuthSpec } from '../auth/types.js';

/**
 * The statuses every operation can answer besides its own, and what each status means on it. The routes
 * list the statuses their rules answer; the edge (body, URL and header limits, timeouts, content types),
 * authentication and the shared stores add these to every operation they guard, so a client sees each
 * status it can meet.
 */

export interface RouteFacts {
  method: string;
  auth: AuthSpec | undefined;
  rateLimited: boolean;
  hasPathParams: boolean;
  /** The route's 200 bodies may come from the read cache (`config.readCache`): its answers say `x-read-cache`. */
  readCache: boolean;
  /** The route is being retired (`config.deprecated`): its answers carry Deprecation, Link and, when set, Sunset. */
  deprecation?: { sunset: boolean };
  /** What each success status means on this route, as its schema says (`answer()` in platform/schemas.ts). */
  answers: Record<number, string>;
}

/** Statuses an operation answers whatever its route's own rules say. */
export function sharedStatuses({ auth, rateLimited, hasPathParams }: RouteFacts): number[] {
  const statuses = [400, 408, 413, 414, 415, 431];
  if (hasPathParams) statuses.push(404);
  if (rateLimited) statuses.push(429, 503);
  const signed = auth && (auth.kind.startsWith('human') || auth.kind.startsWith('agent') || (auth.kind === 'public' && auth.reader));
  if (auth && auth.kind !== 'public') statuses.push(401);
  if (signed) statuses.push(401, 403, 409, 429, 503);
  return statuses;
}

const AUTH_401: Record<string, string> = {
  'api-key': 'No public API key, or one that is not valid (API_KEY_REQUIRED, API_KEY_INVALID).',
  operations: 'No operations token, or a wrong one (OPERATIONS_ACCESS_REQUIRED).',
  human:
    'The signature headers are missing or malformed, the timestamp is outside the allowed skew, or the signature does not match (SIGNATURE_INVALID, one details entry per header).',
  agent:
    'The x-agent-* headers are missing or malformed (AGENT_SIGNED_HEADERS_INVALID), the signature does not verify (AGENT_SIGNATURE_INVALID), or the bot has not joined (AGENT_BOT_UNREGISTERED).',
};

const authFamily = (auth: AuthSpec | undefined) =>
  !auth ? 'none' : auth.kind.startsWith('human') || auth.kind === 'public' ? 'human' : auth.kind.startsWith('agent') ? 'agent' : auth.kind;

/** What `status` means on an operation with these facts (the response's description). */
export function statusDescription(status: number, facts: RouteFacts): string {
  const family = authFamily(facts.auth);
  switch (status) {
    case 200:
      return facts.method === 'GET'
        ? 'OK: the requested record or page.'
        : 'Done: the answer describes what the request did (nothing new was accepted, or the route reports).';
    case 201:
      return 'Created.';
    case 202:
      return 'Accepted: the write committed; the body is the record it created or changed.';
    case 400:
      return 'The request is not valid: a body, query or path parameter outside its schema (VALIDATION_FAILED, naming each field in details), a body that is not JSON (MALFORMED_JSON), a bad URL (MALFORMED_URL, MALFORMED_REQUEST), a header holding a control character (MALFORMED_HEADER), a cursor this service did not issue (INVALID_CURSOR), or a rule of the route refuses the input.';
    case 401:
      return AUTH_401[family] ?? 'Authentication failed.';
    case 403:
      return family === 'human'
        ? 'Forbidden: the linkedHumanId is not bound to the actorId (LINKED_HUMAN_NOT_BOUND), the actor is not on the allowlist the route needs, or a rule of the route refuses this actor.'
        : 'Forbidden: the caller may not do this (missing permission, verification or proof).';
    case 404:
      return 'No such record, or one the caller may not see (NOT_FOUND).';
    case 408:
      return 'The request was not received in time (REQUEST_TIMEOUT).';
    case 409:
      return family === 'human' || family === 'agent'
        ? 'Conflict: the nonce was used before (REPLAY_DETECTED: sign again with a fresh nonce), or the record is not in a state that allows this request.'
        : 'Conflict: the record is not in a state that allows this request.';
    case 410:
      return 'Gone: the challenge expired or was used (CHALLENGE_EXPIRED, CHALLENGE_USED).';
    case 413:
      return 'The body is larger than HTTP_BODY_LIMIT_BYTES (PAYLOAD_TOO_LARGE).';
    case 414:
      return 'The request target (path and query) is longer than the service accepts, HTTP_MAX_URL_BYTES (URI_TOO_LONG).';
    case 415:
      return 'A body that is not application/json (UNSUPPORTED_MEDIA_TYPE).';
    case 425:
      return 'Too early: the transaction is not final on chain yet; report it again later (retryAfterSeconds).';
    case 429:
      return 'A rate limit is reached (RATE_LIMITED): wait retryAfterSeconds (also the retry-after header).';
    case 431:
      return 'The request headers are larger than the service accepts (HEADERS_TOO_LARGE).';
    case 503:
      return 'A store the request needs is unavailable (DATABASE_UNAVAILABLE, REDIS_UNAVAILABLE, SIGNING_SECRET_UNAVAILABLE): nothing was accepted; send it again later, signed again.';
    default:
      return `HTTP ${status}.`;
  }
}

const STATUS_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  408: 'RequestTimeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'PayloadTooLarge',
  414: 'UriTooLong',
  415: 'UnsupportedMediaType',
  425: 'TooEarly',
  429: 'TooManyRequests',
  431: 'HeadersTooLarge',
  503: 'ServiceUnavailable',
};

const FAMILY_PREFIX: Record<string, string> = {
  human: 'Human',
  agent: 'Agent',
  'api-key': 'ApiKey',
  operations: 'Operations',
  none: 'Public',
};

/**
 * The name of an error response in `components.responses`: the status's name, prefixed by the kind of
 * authentication when the description differs by it (`HumanUnauthorized`, `AgentUnauthorized`) or when it carries a
 * header only that kind of authentication sends (`byAuthentication`: `AgentBadRequest`).
 */
export function errorResponseNames(status: number, facts: RouteFacts, byAuthentication = false): string[] {
  const base = STATUS_NAMES[status] ?? `Status${status}`;
  const prefixed = `${FAMILY_PREFIX[authFamily(facts.auth)] ?? ''}${base}`;
  // a person's signed write carries headers a person's read does not (its idempotency key's): its own name
  if (byAuthentication && facts.auth?.kind === 'human-write') return [`HumanWrite${base}`];
  return byAuthentication || [401, 403, 409].includes(status) ? [prefixed] : [base, prefixed];
}
