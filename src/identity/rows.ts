import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from '../platform/db/row-types.js';

/**
 * The row types of the tables identity owns, for Kysely (`IdentityDatabase`: table name → row type); the names are
 * listed in tables.ts. test/platform/schema-types.test.ts checks them against the migrated database.
 */
export interface IdentityDatabase {
  bots: BotsTable;
  bot_keys: BotKeysTable;
  human_identities: HumanIdentitiesTable;
  actor_bindings: ActorBindingsTable;
  login_challenges: LoginChallengesTable;
  verified_human_actions: VerifiedHumanActionsTable;
}

export interface BotsTable {
  bot_id: string;
  name: string;
  description: string | null;
  operator_contact: string | null;
  source: 'SELF_SERVE' | 'REGISTRY';
  trust_tier: Generated<'UNVERIFIED' | 'VERIFIED'>;
  linked_human_id: string | null;
  wallet_address: string | null;
  wallet_chain_id: string | null;
  /** migrations/0002_identity.sql: when the bot last passed /v1/agents/verify. */
  verified_at: Date | null;
  permissions: string[];
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface BotKeysTable {
  bot_id: string;
  version: number;
  public_key: string;
  created_at: CreatedAt;
  /** migrations/0002_identity.sql: set when the key was revoked; revoked keys never sign again. */
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface HumanIdentitiesTable {
  linked_human_id: string;
  tier: 'L2' | 'L3';
  provider: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface ActorBindingsTable {
  actor_id: string;
  linked_human_id: string;
  bound_at: CreatedAt;
  /** End of the login session (NULL: a binding without a session, made by an operator). */
  expires_at: Date | null;
}

export interface LoginChallengesTable {
  id: string;
  actor_id: string;
  action: string;
  signal: string;
  signal_hash: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  linked_human_id: string | null;
}

export interface VerifiedHumanActionsTable {
  id: string;
  action: string;
  linked_human_id: string;
  provider: string;
  nullifier_hash: string;
  created_at: CreatedAt;
  consumed_at: Date | null;
  consumed_by: string | null;
}
