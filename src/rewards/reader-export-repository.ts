import { sql } from 'kysely';
import type { Queryable } from '../platform/db/database.js';
import type { RewardsTables } from './tables.js';

/**
 * What a reader's data export (readers' `ExportSources`) shows of the rewards: their payout recipient, its wallet
 * challenges and their paid-action usage (their payouts: `readerPayoutRows`, beside the condition it uses).
 */

/** The payout recipient record of this linked human (recipients are people), without who froze it. */
export async function exportRecipient(db: Queryable<RewardsTables>, linkedHumanId: string) {
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
export async function exportWalletChallenges(db: Queryable<RewardsTables>, recipientId: string) {
  return db
    .selectFrom('reward_wallet_challenges')
    .select(['id', 'address', 'chain_id', 'created_at', 'expires_at', 'used_at'])
    .where('recipient_id', '=', recipientId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Daily paid-action counts of the given budget subjects (`human:<id>`, `actor:<id>`), oldest day first. */
export async function exportPaidActionUsage(db: Queryable<RewardsTables>, subjects: string[]) {
  return db
    .selectFrom('paid_action_usage')
    .select(['subject', sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), 'used'])
    .where('subject', 'in', subjects)
    .orderBy('day')
    .orderBy('subject')
    .execute();
}
