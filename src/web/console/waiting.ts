import type { HumanActor } from '../../platform/auth/types.js';
import type { ConsoleArea, ConsoleRoles } from './access.js';

/**
 * What waits for an admin, counted by the services that own it (the composition root wires each count to its
 * context's service): the console's home lists these, and the site's masthead shows their total.
 */
export interface WaitingSources {
  /** Quarantined candidates waiting for a decision (moderation). */
  quarantine(): Promise<number>;
  /** Review cases not closed (rewards review). */
  reviewCases(): Promise<number>;
  /** Control-plane requests waiting for this approver: filed by someone else, not yet approved by them. */
  approvals(actor: HumanActor): Promise<number>;
  /** Settlement runs waiting for this rewards admin's second approval. */
  moneyApprovals(actor: HumanActor): Promise<number>;
  /** Claim batch finalizes waiting for this rewards admin's second approval. */
  finalizeApprovals(actor: HumanActor): Promise<number>;
  /** Proposals waiting to be ratified (DRAFT) and activated (RATIFIED). */
  proposals(): Promise<{ draft: number; ratified: number }>;
  /** Clusters the latest cartel analysis flagged that nobody dismissed. */
  findings(): Promise<number>;
  /** Webhook deliveries retrying or given up. */
  failingDeliveries(): Promise<number>;
}

export type WaitingKind =
  | 'quarantine'
  | 'reviewCases'
  | 'approvals'
  | 'moneyApprovals'
  | 'finalizeApprovals'
  | 'toRatify'
  | 'toActivate'
  | 'findings'
  | 'failingDeliveries';

export interface WaitingItem {
  kind: WaitingKind;
  /** The area the item's page is in: only the areas this person may open are counted. */
  area: ConsoleArea;
  /** The page that lists them, and its query. */
  path: string;
  query?: Record<string, string>;
  count: number;
}

/** Each kind's area and page, in the order the home lists them. */
const KINDS: ReadonlyArray<Omit<WaitingItem, 'count'> & { needs?: (roles: ConsoleRoles) => boolean }> = [
  { kind: 'approvals', area: 'control-plane', path: '/console/control-plane', query: { status: 'PENDING' }, needs: (r) => r.approver },
  { kind: 'quarantine', area: 'moderation', path: '/console/moderation' },
  { kind: 'toRatify', area: 'governance', path: '/console/governance' },
  { kind: 'toActivate', area: 'governance', path: '/console/governance' },
  { kind: 'moneyApprovals', area: 'rewards', path: '/console/rewards/settlements' },
  { kind: 'finalizeApprovals', area: 'rewards', path: '/console/rewards/claims' },
  { kind: 'reviewCases', area: 'rewards', path: '/console/rewards/review' },
  { kind: 'findings', area: 'integrity', path: '/console/integrity' },
  { kind: 'failingDeliveries', area: 'moderation', path: '/console/moderation/webhooks' },
];

/**
 * What waits for this person, counted only in the areas their allowlists open (as gate.ts computes them), and
 * control-plane approvals only for an approver. Every count is a service's count query, run side by side.
 */
export async function waitingFor(
  sources: WaitingSources,
  roles: ConsoleRoles,
  areas: readonly ConsoleArea[],
  actor: HumanActor,
): Promise<WaitingItem[]> {
  const open = KINDS.filter((k) => areas.includes(k.area) && (k.needs?.(roles) ?? true));
  const wanted = new Set(open.map((k) => k.kind));
  const zero = async () => 0;
  const [quarantine, reviewCases, approvals, moneyApprovals, finalizeApprovals, proposals, findings, failingDeliveries] = await Promise.all(
    [
      wanted.has('quarantine') ? sources.quarantine() : zero(),
      wanted.has('reviewCases') ? sources.reviewCases() : zero(),
      wanted.has('approvals') ? sources.approvals(actor) : zero(),
      wanted.has('moneyApprovals') ? sources.moneyApprovals(actor) : zero(),
      wanted.has('finalizeApprovals') ? sources.finalizeApprovals(actor) : zero(),
      wanted.has('toRatify') || wanted.has('toActivate') ? sources.proposals() : { draft: 0, ratified: 0 },
      wanted.has('findings') ? sources.findings() : zero(),
      wanted.has('failingDeliveries') ? sources.failingDeliveries() : zero(),
    ],
  );
  const counts: Record<WaitingKind, number> = {
    quarantine,
    reviewCases,
    approvals,
    moneyApprovals,
    finalizeApprovals,
    toRatify: proposals.draft,
    toActivate: proposals.ratified,
    findings,
    failingDeliveries,
  };
  return open.map(({ needs: _needs, ...item }) => ({ ...item, count: counts[item.kind] }));
}

/** The total of what waits for this person (the masthead's "Console (3)"). */
export const waitingTotal = (items: readonly WaitingItem[]) => items.reduce((sum, item) => sum + item.count, 0);
