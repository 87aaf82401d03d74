import type { RegistryBot } from '../../config.js';

/** A bot that may sign writes, whichever way it was admitted. */
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

/** A bot admitted through self-serve join, as the agents repository reads it. */
export type SelfServeBot = Omit<KnownBot, 'source'>;

/**
 * Finds the bots that may sign writes: the server-owned registry (AGENT_BOT_REGISTRY) first, then the bots
 * admitted through self-serve join (one query per lookup, in the agents repository).
 */
export function createBotDirectory(findSelfServeBot: (botId: string) => Promise<SelfServeBot | null>, registry: readonly RegistryBot[]) {
  const byId = new Map(registry.map((b) => [b.botId, b]));

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
      const bot = await findSelfServeBot(botId);
      return bot ? { ...bot, source: 'SELF_SERVE' } : null;
    },
  };
}
