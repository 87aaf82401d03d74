import { sql } from 'kysely';
import type { RegistryBot } from '../../config.js';
import type { Db } from '../db/database.js';

export interface KnownBot {
  botId: string;
  source: 'SELF_SERVE' | 'REGISTRY';
  keys: { version: number; publicKey: string }[];
  permissions: string[];
  verified: boolean;
  linkedHumanId: string | undefined;
  walletAddress: string | undefined;
  walletChainId: string | undefined;
}

/**
 * Finds the bots that may sign writes: the server-owned registry (AGENT_BOT_REGISTRY) first, then the bots
 * admitted through self-serve join. One query per lookup.
 */
export function createBotDirectory(db: Db, registry: readonly RegistryBot[]) {
  const byId = new Map(registry.map((b) => [b.botId, b]));
  const registryKeys = new Map(registry.flatMap((b) => b.publicKeys.map((k) => [k.publicKey, b.botId] as const)));

  return {
    async find(botId: string): Promise<KnownBot | null> {
      const reg = byId.get(botId);
      if (reg) {
        return {
          botId,
          source: 'REGISTRY',
          keys: reg.publicKeys,
          permissions: reg.permissions,
          verified: reg.verified,
          linkedHumanId: reg.linkedHumanId,
          walletAddress: undefined,
          walletChainId: undefined,
        };
      }
      const row = await db
        .selectFrom('bots')
        .select([
          'bot_id',
          'permissions',
          'trust_tier',
          'linked_human_id',
          'wallet_address',
          'wallet_chain_id',
          sql<{ version: number; publicKey: string }[]>`(select coalesce(json_agg(json_build_object('version', k.version, 'publicKey', k.public_key) order by k.version), '[]'::json) from bot_keys k where k.bot_id = bots.bot_id)`.as('keys'),
        ])
        .where('bot_id', '=', botId)
        .executeTakeFirst();
      if (!row) return null;
      return {
        botId: row.bot_id,
        source: 'SELF_SERVE',
        keys: row.keys,
        permissions: row.permissions,
        verified: row.trust_tier === 'VERIFIED',
        linkedHumanId: row.linked_human_id ?? undefined,
        walletAddress: row.wallet_address ?? undefined,
        walletChainId: row.wallet_chain_id ?? undefined,
      };
    },
    /** The registry bot that owns this public key, if any (a registry key cannot self-join as another bot). */
    registryOwnerOfKey(publicKey: string): string | undefined {
      return registryKeys.get(publicKey);
    },
  };
}

export type BotDirectory = ReturnType<typeof createBotDirectory>;
