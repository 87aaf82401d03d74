import { sql } from 'kysely';
import { isUniqueViolation, type Queryable, type Tx } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import { payoutsOfPerson } from '../payout-scope-repository.js';
import type { BotOwnerChallengesTable, BotOwnersTable, PayoutStatus } from '../rows.js';

/** SQL of bot owners: ownership challenges, the ownerships, and the payouts a claim makes the owner's. */

/** The bot's current ownership (not ended), whether or not the bot is still verified with its wallet. */
export async function currentOwnership(db: Queryable<RewardsTables>, botId: string) {
  return (
    (await db.selectFrom('bot_owners').selectAll().where('bot_id', '=', botId).where('ended_at', 'is', null).executeTakeFirst()) ?? null
  );
}

export async function insertChallenge(db: Queryable<RewardsTables>, row: Omit<BotOwnerChallengesTable, 'used_at'>): Promise<void> {
  await db.insertInto('bot_owner_challenges').values(row).execute();
}

export async function findChallenge(db: Queryable<RewardsTables>, id: string) {
  return (await db.selectFrom('bot_owner_challenges').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** Uses the challenge once: true only for the one caller whose update found it unused and unexpired. */
export async function useChallenge(tx: Tx<RewardsTables>, id: string, now: Date): Promise<boolean> {
  const row = await tx
    .updateTable('bot_owner_challenges')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id')
    .executeTakeFirst();
  return Boolean(row);
}

export async function endOwnership(
  tx: Tx<RewardsTables>,
  id: string,
  reason: 'UNLINKED' | 'REPLACED',
  by: string,
  now: Date,
): Promise<void> {
  await tx
    .updateTable('bot_owners')
    .set({ ended_at: now, ended_reason: reason, ended_by: by })
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .execute();
}

/** Records the new current owner; 'owned' when the bot has a current owner already (bot_owners_current). */
export async function insertOwnership(tx: Tx<RewardsTables>, row: BotOwnersTable): Promise<'inserted' | 'owned'> {
  try {
    await tx.insertInto('bot_owners').values(row).execute();
    return 'inserted';
  } catch (err) {
    if (isUniqueViolation(err)) return 'owned';
    throw err;
  }
}

export interface WaitingPayout {
  seq: string;
  status: PayoutStatus;
  status_reason: string | null;
  story_frozen: boolean;
}

/**
 * The bot's payouts that wait for a payable owner, locked: attached to no recipient yet, not paid, and not
 * credited to a person who owned the bot through an earlier claim (what a person earned while they owned the
 * bot stays theirs). `owner` is the new owner, whose own earlier payouts are included.
 */
export async function lockWaitingPayouts(tx: Tx<RewardsTables>, botId: string, owner: string): Promise<WaitingPayout[]> {
  const { rows } = await sql<WaitingPayout>`
    select p.seq, p.status, p.status_reason,
      exists (select 1 from reward_story_freezes f where f.story_id = p.story_id) as story_frozen
    from payouts p
    where ${payoutsOfPerson('BOT', botId, 'p')} and p.recipient_id is null and p.status in ('PENDING_RECIPIENT', 'FROZEN', 'REVIEW')
      and (p.linked_human_id is null or p.linked_human_id = ${owner} or not exists (
        select 1 from bot_owners o where o.bot_id = ${botId} and o.linked_human_id = p.linked_human_id))
    order by p.seq
    for update of p`.execute(tx);
  return rows;
}

/** Makes payouts the owner's, in the state the rewards rules give them (payout-status.ts). */
export async function assignPayouts(
  tx: Tx<RewardsTables>,
  seqs: readonly string[],
  to: { linkedHumanId: string; recipientId: string | null; status: PayoutStatus; reason: string | null; now: Date },
): Promise<void> {
  if (!seqs.length) return;
  await sql`
    update payouts set linked_human_id = ${to.linkedHumanId}, recipient_id = ${to.recipientId}, status = ${to.status},
      status_reason = ${to.reason}, updated_at = ${to.now}
    where seq = any(${seqs}::bigint[])`.execute(tx);
}
