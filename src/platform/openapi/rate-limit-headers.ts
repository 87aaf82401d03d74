import type { BudgetPolicy } from '../rate-limit.js';
import type { RouteFacts } from './responses.js';

/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers) in the document: each operation that counts
 * against a budget declares `RateLimit` and `RateLimit-Policy` on its answers (platform/rate-limit.ts sends them;
 * which request counts against which budget is platform/auth/plugin.ts).
 */

const POLICY = '"(reads|human-writes|agent-writes|joins)";q=[0-9]+;w=60';

/** The two fields' Header Objects (declared in components.headers by ./headers.ts). */
export const rateLimitHeaderComponents = {
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
export function budgetsOf(facts: RouteFacts): BudgetPolicy[] {
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
