import type { Queryable, Tx } from '../../platform/db/database.js';
import type { IdentityTables } from '../tables.js';

/** What the rewards' bot owners read of a bot (their `BotRecords` port): its verification and wallet binding. */
const BOT_RECORD_COLUMNS = ['bot_id', 'source', 'trust_tier', 'linked_human_id', 'wallet_address', 'wallet_chain_id'] as const;

export async function findBotRecord(db: Queryable<IdentityTables>, botId: string) {
  return (await db.selectFrom('bots').select(BOT_RECORD_COLUMNS).where('bot_id', '=', botId).executeTakeFirst()) ?? null;
}

/** Locks the bot row: a claim, an unlink and a verification (which updates the row) of one bot run one at a time. */
export async function lockBotRecord(tx: Tx<IdentityTables>, botId: string) {
  return (await tx.selectFrom('bots').select(BOT_RECORD_COLUMNS).where('bot_id', '=', botId).forUpdate().executeTakeFirst()) ?? null;
}

/** The public key of an active (not revoked) key of the bot, or null. */
export async function activeBotKey(db: Queryable<IdentityTables>, botId: string, version: number): Promise<string | null> {
  const row = await db
    .selectFrom('bot_keys')
    .select('public_key')
    .where('bot_id', '=', botId)
    .where('version', '=', version)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row?.public_key ?? null;
}
