import { sql } from 'kysely';
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
    /**
     * Inserts the bot and its version-1 key in one statement (atomic, one round trip); null when the bot
     * already exists.
     */
    async insertSelfServeBot(input: { botId: string; name: string; description?: string; operatorContact?: string; publicKey: string; permissions: readonly string[] }): Promise<BotRow | null> {
      const result = await sql<BotRow>`
        WITH bot AS (
          INSERT INTO bots (bot_id, name, description, operator_contact, source, permissions)
          VALUES (${input.botId}, ${input.name}, ${input.description ?? null}, ${input.operatorContact ?? null}, 'SELF_SERVE', ${[...input.permissions]}::text[])
          ON CONFLICT (bot_id) DO NOTHING
          RETURNING bot_id, name, trust_tier, permissions, source, created_at
        ), key AS (
          INSERT INTO bot_keys (bot_id, version, public_key) SELECT bot_id, 1, ${input.publicKey} FROM bot
        )
        SELECT * FROM bot`.execute(db);
      return result.rows[0] ?? null;
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
