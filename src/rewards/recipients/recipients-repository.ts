import { sql } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import { botsSeqs, personSeqs } from '../payout-scope-repository.js';
import type { RewardRecipientsTable, RewardWalletChallengesTable } from '../rows.js';

/** SQL of payout recipients and their wallet challenges. */

export async function findRecipientByHuman(db: Queryable<RewardsTables>, linkedHumanId: string) {
  return (await db.selectFrom('reward_recipients').selectAll().where('linked_human_id', '=', linkedHumanId).executeTakeFirst()) ?? null;
}

/** Records terms acceptance; one recipient per person (linked_human_id is unique), so a repeat updates it. */
export async function upsertRecipient(tx: Tx<RewardsTables>, row: RewardRecipientsTable) {
  return tx
    .insertInto('reward_recipients')
    .values(row)
    .onConflict((oc) =>
      oc.column('linked_human_id').doUpdateSet({
        actor_id: row.actor_id,
        terms_version: row.terms_version,
        terms_accepted_at: row.terms_accepted_at,
        updated_at: row.updated_at,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertWalletChallenge(
  db: Queryable<RewardsTables>,
  row: Omit<RewardWalletChallengesTable, 'used_at'>,
): Promise<void> {
  await db.insertInto('reward_wallet_challenges').values(row).execute();
}

export async function findWalletChallenge(db: Queryable<RewardsTables>, id: string) {
  return (await db.selectFrom('reward_wallet_challenges').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** Uses the challenge once: true only for the one caller whose update found it unused and unexpired. */
export async function claimWalletChallenge(tx: Tx<RewardsTables>, id: string, now: Date): Promise<boolean> {
  const row = await tx
    .updateTable('reward_wallet_challenges')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id')
    .executeTakeFirst();
  return Boolean(row);
}

export async function bindWallet(tx: Tx<RewardsTables>, recipientId: string, address: string, chainId: number, now: Date) {
  return tx
    .updateTable('reward_recipients')
    .set({ wallet_address: address, wallet_chain_id: chainId, wallet_verified_at: now, updated_at: now })
    .where('id', '=', recipientId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Payouts that waited for this person's recipient and wallet become payable: the person's own (flags, and bots'
 * payouts credited to them) and the waiting ones of the bots they own now (bot_payout_owners), except those
 * credited to another person who owned the bot through a claim (what they earned stays theirs). Frozen and held
 * payouts stay where they are.
 */
export async function releaseWaitingPayouts(tx: Tx<RewardsTables>, recipientId: string, linkedHumanId: string, now: Date): Promise<number> {
  const owned = sql`select bot_id from bot_payout_owners where linked_human_id = ${linkedHumanId}`;
  const { numAffectedRows } = await sql`
    update payouts p set status = 'PAYABLE', status_reason = null, recipient_id = ${recipientId},
      linked_human_id = ${linkedHumanId}, updated_at = ${now}
    where p.status = 'PENDING_RECIPIENT'
      and p.seq in (${personSeqs('HUMAN', linkedHumanId)} union all ${botsSeqs(owned)})
      and (p.linked_human_id = ${linkedHumanId}
        or (p.bot_id in (${owned})
          and not exists (select 1 from bot_owners o where o.bot_id = p.bot_id and o.linked_human_id = p.linked_human_id)))`.execute(tx);
  return Number(numAffectedRows ?? 0);
}
