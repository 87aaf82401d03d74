/**
 * The service's budgets, as each answer tells them in the IETF `RateLimit` and `RateLimit-Policy` fields
 * (draft-ietf-httpapi-ratelimit-headers): `RateLimit: "human-writes";r=119;t=42` and
 * `RateLimit-Policy: "human-writes";q=120;w=60`.
 */
export interface RateLimitInfo {
  /** The budget's name: reads, human-writes, agent-writes, joins (the list may grow). */
  policy: string;
  /** Requests left in the current window (0: the next one is refused with 429). */
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** Requests the policy allows per window, when the answer carries its RateLimit-Policy. */
  quota?: number;
  /** The window's length in seconds, when the answer carries its RateLimit-Policy. */
  windowSeconds?: number;
}

interface Item {
  name: string;
  params: Record<string, number>;
}

/** A Structured Field list of items whose bare item is a string or a token, with integer parameters (others skipped). */
function parseList(field: string | null): Item[] {
  if (!field) return [];
  const items: Item[] = [];
  for (const member of field.split(',')) {
    const [head = '', ...params] = member.trim().split(';');
    const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(head.trim());
    const name = quoted ? quoted[1]!.replace(/\\(.)/g, '$1') : head.trim();
    if (!name || (!quoted && !/^[A-Za-z*][\w:/!#$%&'*+.^`|~-]*$/.test(name))) continue;
    const parsed: Record<string, number> = {};
    for (const param of params) {
      const match = /^\s*([a-z*][a-z0-9_.*-]*)=(-?\d{1,15})\s*$/.exec(param);
      if (match) parsed[match[1]!] = Number(match[2]);
    }
    items.push({ name, params: parsed });
  }
  return items;
}

/**
 * The budget an answer reports, or undefined when it reports none (a route without a limit). Takes a fetch
 * Response, its Headers, or any answer with `headers` (the SDK's ServiceResponse, openapi-fetch's `response`).
 * With several budgets in one answer, `policy` picks one by name (default: the first).
 */
export function rateLimitOf(source: Headers | { headers: Headers }, policy?: string): RateLimitInfo | undefined {
  const headers = source instanceof Headers ? source : source.headers;
  const current = parseList(headers.get('ratelimit')).find((item) => policy === undefined || item.name === policy);
  if (!current || current.params.r === undefined || current.params.t === undefined) return undefined;
  const declared = parseList(headers.get('ratelimit-policy')).find((item) => item.name === current.name);
  return {
    policy: current.name,
    remaining: current.params.r,
    resetSeconds: current.params.t,
    ...(declared?.params.q !== undefined ? { quota: declared.params.q } : {}),
    ...(declared?.params.w !== undefined ? { windowSeconds: declared.params.w } : {}),
  };
}
