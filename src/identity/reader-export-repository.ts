import type { Queryable } from '../platform/db/database.js';
import type { IdentityTables } from './tables.js';

/**
 * What a reader's data export (readers' `ExportSources`) shows of identity's records, read in the export's
 * snapshot: only the columns it shows, never proof material (nullifier hashes, login challenge signals).
 */

export async function exportBinding(db: Queryable<IdentityTables>, actorId: string) {
  return db
    .selectFrom('actor_bindings')
    .select(['linked_human_id', 'bound_at', 'expires_at'])
    .where('actor_id', '=', actorId)
    .executeTakeFirst();
}

export async function exportHumanIdentity(db: Queryable<IdentityTables>, linkedHumanId: string) {
  return db
    .selectFrom('human_identities')
    .select(['linked_human_id', 'tier', 'provider', 'created_at', 'updated_at'])
    .where('linked_human_id', '=', linkedHumanId)
    .executeTakeFirst();
}

export async function exportLoginChallenges(db: Queryable<IdentityTables>, actorId: string) {
  return db
    .selectFrom('login_challenges')
    .select(['id', 'action', 'created_at', 'expires_at', 'used_at', 'linked_human_id'])
    .where('actor_id', '=', actorId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function exportVerifiedActions(db: Queryable<IdentityTables>, linkedHumanId: string) {
  return db
    .selectFrom('verified_human_actions')
    .select(['id', 'action', 'provider', 'created_at', 'consumed_at', 'consumed_by'])
    .where('linked_human_id', '=', linkedHumanId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Bots verified as operated by this human (their wallet binding included). */
export async function exportAgents(db: Queryable<IdentityTables>, linkedHumanId: string) {
  return db
    .selectFrom('bots')
    .select(['bot_id', 'name', 'trust_tier', 'wallet_address', 'wallet_chain_id', 'created_at'])
    .where('linked_human_id', '=', linkedHumanId)
    .orderBy('created_at')
    .orderBy('bot_id')
    .execute();
}
