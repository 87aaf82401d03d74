import type { Db } from '../../platform/db/database.js';

export interface BotRow {
  bot_id: string;
  name: string;
  trust_tier: 'UNVERIFIED' | 'VERIFIED';
  permissions: string[];
  source: 'SELF_SERVE' | 'REGISTRY';
  created_at: Date;
}

/** SQL of the agents module. */
export function createAgentsRepository(db: Db) {
  return {
    /** Inserts the bot and its version-1 key in one transaction; null when the bot already exists. */
    async insertSelfServeBot(input: { botId: string; name: string; description?: string; operatorContact?: string; publicKey: string; permissions: readonly string[] }): Promise<BotRow | null> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('bots')
          .values({
            bot_id: input.botId,
            name: input.name,
            description: input.description ?? null,
            operator_contact: input.operatorContact ?? null,
            source: 'SELF_SERVE',
            permissions: [...input.permissions],
            linked_human_id: null,
            wallet_address: null,
            wallet_chain_id: null,
          })
          .onConflict((oc) => oc.column('bot_id').doNothing())
          .returning(['bot_id', 'name', 'trust_tier', 'permissions', 'source', 'created_at'])
          .executeTakeFirst();
        if (!row) return null;
        await trx.insertInto('bot_keys').values({ bot_id: input.botId, version: 1, public_key: input.publicKey }).execute();
        return row;
      });
    },
    async findBot(botId: string): Promise<BotRow | null> {
      const row = await db
        .selectFrom('bots')
        .select(['bot_id', 'name', 'trust_tier', 'permissions', 'source', 'created_at'])
        .where('bot_id', '=', botId)
        .executeTakeFirst();
      return row ?? null;
    },
  };
}

export type AgentsRepository = ReturnType<typeof createAgentsRepository>;
