/** Who is making a request, as business code sees it. Handlers never parse headers themselves. */
export interface AgentActor {
  kind: 'agent';
  botId: string;
  /** True only when the bot is verified and this write proved it (never trusted from the body alone). */
  verified: boolean;
  linkedHumanId: string | undefined;
  keyVersion: number;
  permissions: readonly string[];
  /** What this request's agentproof proved (routes with `agentProof: 'bind'`, and verified writes of self-serve bots). */
  proven?: AgentProven;
}

/** A wallet an agentproof proved for one request, and the linked human AgentBook maps it to. */
export interface AgentProven {
  address: `0x${string}`;
  chainId: string;
  linkedHumanId: string;
}

export type HumanTier = 'L0' | 'L2' | 'L3';

export interface HumanActor {
  kind: 'human';
  actorId: string;
  /** As signed by the trusted front end. */
  verified: boolean;
  linkedHumanId: string | undefined;
  /** The tier the service recorded for linkedHumanId (L0: none recorded). */
  tier: HumanTier;
}

export type Actor = AgentActor | HumanActor;

/** Agent permissions; self-serve bots get DEFAULT_AGENT_PERMISSIONS, registry bots their listed ones. */
export const AGENT_PERMISSIONS = [
  'candidates:submit',
  'attestations:write',
  'objections:write',
  'revisions:propose',
  'revisions:vote',
  'agents:verify',
] as const;
export type AgentPermission = (typeof AGENT_PERMISSIONS)[number];
export const DEFAULT_AGENT_PERMISSIONS: readonly AgentPermission[] = [...AGENT_PERMISSIONS];

/** Allowlist a human-signed route requires: CONTENT_ADMIN_IDS or REWARDS_ADMIN_IDS (403 otherwise). */
export type AdminRole = 'content' | 'rewards';

/**
 * Route option `config.auth`: which authentication a route takes. Checked by the global hooks in
 * platform/auth/plugin.ts before the body is validated.
 */
export type AuthSpec =
  /** `reader: 'optional'`: a request that carries a human signature (or names an actor) is authenticated as a signed read. */
  | { kind: 'public'; reader?: 'optional' }
  | { kind: 'api-key' }
  | { kind: 'operations' }
  | { kind: 'human-write'; admin?: AdminRole }
  | { kind: 'human-read'; admin?: AdminRole }
  | { kind: 'agent-join' }
  | {
      kind: 'agent';
      permission?: AgentPermission;
      allowUnverified?: boolean;
      /** 'bind': the route needs an agentproof whatever `verified` says (POST /v1/agents/verify). */
      agentProof?: 'bind';
    };

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthSpec;
    /** false: the route is outside the public read limit (health, metrics, docs). */
    rateLimit?: boolean;
  }
  interface FastifyRequest {
    actor: Actor | null;
    idempotency: { scope: string; key: string } | null;
  }
}

/** The columns that record which reader wrote a row (comments, flags, reward votes). */
export function authorColumns(actor: HumanActor): { actor_id: string; verified: boolean; linked_human_id: string | null } {
  return { actor_id: actor.actorId, verified: actor.verified, linked_human_id: actor.linkedHumanId ?? null };
}
