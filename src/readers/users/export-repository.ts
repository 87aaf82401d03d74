import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.js';

/**
 * SQL of the data export: what the service holds about one reader, by actor id (and by the linked human the
 * identity records bind to it). Only the columns the export shows are selected: proof material
 * (nullifier hashes, login challenge signals) never leaves the database.
 */

/** Runs `fn` in one read-only REPEATABLE READ transaction: every section of an export sees the same moment. */
export async function inSnapshot<T>(db: Queryable, fn: (db: Queryable) => Promise<T>): Promise<T> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute((tx) => fn(tx));
}

export async function findBinding(db: Queryable, actorId: string) {
  return db
    .selectFrom('actor_bindings')
    .select(['linked_human_id', 'bound_at', 'expires_at'])
    .where('actor_id', '=', actorId)
    .executeTakeFirst();
}

export async function findHumanIdentity(db: Queryable, linkedHumanId: string) {
  return db
    .selectFrom('human_identities')
    .select(['linked_human_id', 'tier', 'provider', 'created_at', 'updated_at'])
    .where('linked_human_id', '=', linkedHumanId)
    .executeTakeFirst();
}

export async function loginChallengesOf(db: Queryable, actorId: string) {
  return db
    .selectFrom('login_challenges')
    .select(['id', 'action', 'created_at', 'expires_at', 'used_at', 'linked_human_id'])
    .where('actor_id', '=', actorId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function verifiedActionsOf(db: Queryable, linkedHumanId: string) {
  return db
    .selectFrom('verified_human_actions')
    .select(['id', 'action', 'provider', 'created_at', 'consumed_at', 'consumed_by'])
    .where('linked_human_id', '=', linkedHumanId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Bots verified as operated by this human (their wallet binding included). */
export async function agentsOf(db: Queryable, linkedHumanId: string) {
  return db
    .selectFrom('bots')
    .select(['bot_id', 'name', 'trust_tier', 'wallet_address', 'wallet_chain_id', 'created_at'])
    .where('linked_human_id', '=', linkedHumanId)
    .orderBy('created_at')
    .orderBy('bot_id')
    .execute();
}

export async function commentsOf(db: Queryable, actorId: string) {
  return db
    .selectFrom('comments')
    .select(['id', 'story_id', 'parent_id', 'body', 'verified', 'linked_human_id', 'created_at', 'edited_at', 'deleted_at'])
    .where('actor_id', '=', actorId)
    .orderBy('seq')
    .execute();
}

export async function flagsOf(db: Queryable, actorId: string) {
  return db
    .selectFrom('flags')
    .select(['id', 'story_id', 'severity', 'claim_id', 'reason', 'verified', 'linked_human_id', 'created_at'])
    .where('actor_id', '=', actorId)
    .orderBy('seq')
    .execute();
}

export async function rewardVotesOf(db: Queryable, actorId: string) {
  return db
    .selectFrom('reward_votes')
    .select(['id', 'story_id', 'vote', 'weight', 'verified', 'linked_human_id', 'created_at', 'changed_at'])
    .where('actor_id', '=', actorId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function preferencesOf(db: Queryable, actorId: string) {
  return db.selectFrom('user_preferences').select(['preferences', 'updated_at']).where('actor_id', '=', actorId).executeTakeFirst();
}

/** The payout recipient record of this linked human (recipients are people), without who froze it. */
export async function recipientOf(db: Queryable, linkedHumanId: string) {
  return db
    .selectFrom('reward_recipients')
    .select([
      'id',
      'actor_id',
      'terms_version',
      'terms_accepted_at',
      'wallet_address',
      'wallet_chain_id',
      'wallet_verified_at',
      'frozen_at',
      'frozen_reason',
      'created_at',
      'updated_at',
    ])
    .where('linked_human_id', '=', linkedHumanId)
    .executeTakeFirst();
}

/** Wallet challenges of a recipient, without their nonce and message (the one-time sign-in text). */
export async function walletChallengesOf(db: Queryable, recipientId: string) {
  return db
    .selectFrom('reward_wallet_challenges')
    .select(['id', 'address', 'chain_id', 'created_at', 'expires_at', 'used_at'])
    .where('recipient_id', '=', recipientId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Daily paid-action counts of the given budget subjects (`human:<id>`, `actor:<id>`), oldest day first. */
export async function paidActionUsageOf(db: Queryable, subjects: string[]) {
  return db
    .selectFrom('paid_action_usage')
    .select(['subject', sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), 'used'])
    .where('subject', 'in', subjects)
    .orderBy('day')
    .orderBy('subject')
    .execute();
}
