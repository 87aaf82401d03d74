/**
 * The document's tags, each with what its operations are about and the page that documents them. Every tag an
 * operation names must be here (the plugin throws otherwise, as `redocly lint`'s operation-tag-defined would);
 * the document lists the tags its operations use, in this order.
 */
export const TAGS: { name: string; description: string }[] = [
  { name: 'feed', description: 'The public feed of published stories, in each mode (docs/newsroom-reads.md).' },
  {
    name: 'stories',
    description:
      'A published story and what hangs off it: its versions, sources, consensus and machine room, and the comments, flags and reward votes of readers (docs/newsroom-reads.md, docs/reader-accounts.md).',
  },
  { name: 'search', description: 'Full-text search over the published stories (docs/newsroom-reads.md).' },
  { name: 'home', description: "The home page's modules: developing stories, stories under review, the ledger, reward windows." },
  { name: 'ledger', description: 'The public ledger of what happened to the stories: publications, updates, corrections, retractions.' },
  { name: 'rankings', description: 'Bots ranked by their reviewing record.' },
  {
    name: 'orientation',
    description: 'Neutral data for assistants acting for a person: the modules, the actions a reader can take and what each requires.',
  },
  {
    name: 'agents',
    description:
      "A bot's signed writes: joining and its keys, verification with World AgentKit, attestations, objections, revision proposals and their votes (docs/bot-developers.md).",
  },
  { name: 'candidates', description: "A bot's story candidates, their status and their evidence (docs/bot-developers.md)." },
  { name: 'publish', description: 'The publish computation that scans candidates and publishes the safe ones (operations token).' },
  {
    name: 'identity',
    description: 'World ID login of a person and their verified human actions (docs/identity.md).',
  },
  {
    name: 'users',
    description:
      "A reader's own data, signed for them: preferences, bookmarks, followed topics, history and export (docs/reader-accounts.md).",
  },
  {
    name: 'rewards',
    description:
      'The rewards policy, eligibility, budget and dashboard; payout recipients and wallets; bot owners; settlements and payouts (docs/rewards.md).',
  },
  { name: 'rewards-claims', description: 'The claim rail: distribution batches, Merkle proofs and claim receipts (docs/claims.md).' },
  { name: 'rewards-admin', description: 'The rewards review: review cases and freezes of recipients and stories (docs/rewards.md).' },
  {
    name: 'governance',
    description: 'Governance parameters and proposals, evaluation, emergency measures and the cartel analysis (docs/governance.md).',
  },
  { name: 'control-plane', description: 'Two-person control-plane requests for sensitive changes (docs/governance.md).' },
  {
    name: 'moderation',
    description: 'The quarantine queue, legal holds, source statuses, corrections and retractions (docs/moderation.md).',
  },
  {
    name: 'audit',
    description: 'The audit chain: every governance, control-plane, moderation and rewards change, hash-linked (docs/governance.md).',
  },
  { name: 'health', description: 'Liveness and readiness of the service (docs/operators.md).' },
];

/** The tags `operations` use, in the order of TAGS; a tag that TAGS does not describe throws. */
export function usedTags(operations: { tags?: unknown }[]): { name: string; description: string }[] {
  const used = new Set(operations.flatMap((op) => (Array.isArray(op.tags) ? (op.tags as string[]) : [])));
  const unknown = [...used].filter((name) => !TAGS.some((t) => t.name === name));
  if (unknown.length) throw new Error(`operation tags without a description in src/platform/openapi/tags.ts: ${unknown.join(', ')}`);
  return TAGS.filter((t) => used.has(t.name));
}
