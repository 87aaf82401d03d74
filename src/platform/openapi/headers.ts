import type { BudgetPolicy } from '../rate-limit.js';
import type { RouteFacts } from './responses.js';

/**
 * The response headers of the document: each header the service sends, declared once in
 * `components.headers`, and the rule that says on which responses it comes. The plugin puts a `$ref` to each
 * one on every response its rule names, so a client (and `redocly lint`'s response-contains-header) sees
 * exactly the headers an answer can carry. A new header is one more entry of RESPONSE_HEADERS.
 */

type Node = Record<string, unknown>;

/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers) in the document: each operation that counts
 * against a budget declares `RateLimit` and `RateLimit-Policy` on its answers (platform/rate-limit.ts sends them;
 * which request counts against which budget is platform/auth/plugin.ts).
 */

const POLICY = '"(reads|human-writes|agent-writes|joins)";q=[0-9]+;w=60';

/** The two fields' Header Objects (declared in components.headers by ./headers.ts). */
const rateLimitHeaderComponents = {
  RateLimit: {
    description:
      'The budget this request counted against, after it: `"<policy>";r=<requests left>;t=<seconds until the window resets>` (an IETF RateLimit field, a Structured Field list of one item). r=0 means the next request in the window is 429.',
    schema: { type: 'string', pattern: '^"(reads|human-writes|agent-writes|joins)";r=[0-9]+;t=[0-9]+$' },
    example: '"human-writes";r=119;t=42',
  },
  'RateLimit-Policy': {
    description: `The budget's policy: \`"<policy>";q=<requests per window>;w=<window in seconds>\` (an IETF RateLimit-Policy field). The policies: reads (per client address), human-writes (per actorId), agent-writes (per bot; the quota depends on whether the write is verified), joins (per client address). docs/api-conventions.md, "Rate limits".`,
    schema: { type: 'string', pattern: `^${POLICY}$` },
    example: '"human-writes";q=120;w=60',
  },
} as const;

/** The budgets a request of this operation can count against (none: not limited). */
function budgetsOf(facts: RouteFacts): BudgetPolicy[] {
  if (!facts.rateLimited || !facts.auth) return [];
  const read = facts.method === 'GET' || facts.method === 'HEAD';
  switch (facts.auth.kind) {
    case 'public':
    case 'api-key':
    case 'human-read':
      return read ? ['reads'] : [];
    case 'human-write':
      return ['human-writes'];
    case 'agent':
      return ['agent-writes'];
    case 'agent-join':
      return ['joins', 'agent-writes'];
    default:
      return [];
  }
}

export interface ResponseHeader {
  /** The header's name on the wire (lower case, as HTTP/2 sends it). */
  name: string;
  /** Its name in `components.headers`. */
  component: string;
  /** The Header Object. */
  header: Node;
  /** Whether an answer of `status` on an operation with these facts carries it. */
  on(status: number, facts: RouteFacts): boolean;
  /**
   * True when the header depends on the operation's kind of authentication, not only on its status: a shared
   * error response that carries it is named by the kind (`AgentBadRequest`), never the plain name.
   */
  byAuthentication?: boolean;
}

const isWrite = (facts: RouteFacts) => facts.method !== 'GET' && facts.method !== 'HEAD';
const isAgent = (facts: RouteFacts) => facts.auth?.kind === 'agent' || facts.auth?.kind === 'agent-join';
/** A signed write that takes an idempotency key: a bot's, or a person's. */
const takesIdempotencyKey = (facts: RouteFacts) => isAgent(facts) || facts.auth?.kind === 'human-write';
/** The budget fields: on an operation's own answers and its 429, when it counts against a budget. */
const carriesBudget = (status: number, facts: RouteFacts) => budgetsOf(facts).length > 0 && (status < 300 || status === 429);

export const RESPONSE_HEADERS: ResponseHeader[] = [
  {
    name: 'x-request-id',
    component: 'RequestId',
    header: {
      description:
        "The request's id: the request's own `x-request-id` when it is 1 to 128 of A-Z a-z 0-9 . _ : -, otherwise one the service made. An error body's `requestId` is the same value. Quote it when reporting a problem.",
      required: true,
      schema: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]{1,128}$' },
      example: '3f0c9a52-6f1e-4c1b-9d53-2b8e7a4f1c60',
    },
    on: () => true,
  },
  {
    name: 'retry-after',
    component: 'RetryAfter',
    header: {
      description:
        "Seconds to wait before sending the request again (the body's `retryAfterSeconds`). Always on a 429; on a 503 of an unreachable database or Redis, on a 425, and on a 409 IDEMPOTENCY_KEY_IN_PROGRESS.",
      schema: { type: 'integer', minimum: 0 },
      example: 42,
    },
    on: (status, facts) => status === 429 || status === 503 || status === 425 || (status === 409 && takesIdempotencyKey(facts)),
  },
  {
    name: 'x-read-after',
    component: 'ReadAfter',
    header: {
      description:
        'Only where the deployment reads from a replica: a position in the database history at or after this write. Send it back as the request header `x-read-after` on the reads that must see the write (docs/api-conventions.md, "Reading your own writes").',
      schema: { type: 'string', maxLength: 17, pattern: '^[0-9A-F]{1,8}/[0-9A-F]{1,8}$' },
      example: '0/3A2F1C8',
    },
    on: (status, facts) => isWrite(facts) && status >= 200 && status < 300,
  },
  {
    name: 'x-read-cache',
    component: 'ReadCache',
    header: {
      description:
        'How the body was served: `hit` from the read cache, `coalesced` with the body another request for the same page read, `miss` read now (docs/newsroom-reads.md). More values may be added.',
      schema: { type: 'string', enum: ['hit', 'miss', 'coalesced'] },
      example: 'miss',
    },
    on: (status, facts) => facts.readCache && status === 200,
  },
  {
    name: 'idempotent-replayed',
    component: 'IdempotentReplayed',
    header: {
      description:
        '`true` when this answer is the stored answer of an earlier request with the same `idempotency-key` (docs/api-conventions.md, "Retrying a write").',
      schema: { type: 'string', const: 'true' },
      example: 'true',
    },
    // what the route answers once the key is reserved (after the signature, the nonce and the rate limit): stored
    on: (status, facts) => takesIdempotencyKey(facts) && (status < 300 || [400, 403, 404, 409, 410].includes(status)),
    byAuthentication: true,
  },
  {
    name: 'RateLimit',
    component: 'RateLimit',
    header: rateLimitHeaderComponents.RateLimit,
    on: carriesBudget,
    byAuthentication: true,
  },
  {
    name: 'RateLimit-Policy',
    component: 'RateLimit-Policy',
    header: rateLimitHeaderComponents['RateLimit-Policy'],
    on: carriesBudget,
    byAuthentication: true,
  },
  {
    name: 'deprecation',
    component: 'Deprecation',
    header: {
      description:
        'The operation is deprecated (RFC 9745): `@` and the time it was deprecated, in seconds since 1970-01-01 UTC (docs/api-conventions.md, "Versions and deprecation").',
      required: true,
      schema: { type: 'string', pattern: '^@-?[0-9]{1,16}$' },
      example: '@1803859200',
    },
    on: (_status, facts) => facts.deprecation !== undefined,
  },
  {
    name: 'sunset',
    component: 'Sunset',
    header: {
      description: 'When the deprecated operation stops answering (RFC 8594), as an HTTP date.',
      required: true,
      schema: { type: 'string' },
      example: 'Wed, 01 Sep 2027 00:00:00 GMT',
    },
    on: (_status, facts) => facts.deprecation?.sunset === true,
  },
  {
    name: 'link',
    component: 'DeprecationLink',
    header: {
      description: 'The page about the deprecation and what replaces the operation: `<url>; rel="deprecation"`.',
      required: true,
      schema: { type: 'string' },
      example: '</docs/migrating-to-v2>; rel="deprecation"',
    },
    on: (_status, facts) => facts.deprecation !== undefined,
  },
];

/** `components.headers`: each header of RESPONSE_HEADERS that some response of `responses` (a part of the document) carries. */
export function headerComponents(...responses: unknown[]): Node {
  const text = JSON.stringify(responses);
  return Object.fromEntries(
    RESPONSE_HEADERS.filter((h) => text.includes(`"#/components/headers/${h.component}"`)).map((h) => [h.component, h.header]),
  );
}

/** The `headers` of a response of `status` on an operation with these facts, as references into the components. */
export function responseHeaders(status: number, facts: RouteFacts): { headers: Node; byAuthentication: boolean } {
  const carried = RESPONSE_HEADERS.filter((h) => h.on(status, facts));
  return {
    headers: Object.fromEntries(carried.map((h) => [h.name, { $ref: `#/components/headers/${h.component}` }])),
    byAuthentication: carried.some((h) => h.byAuthentication === true),
  };
}
