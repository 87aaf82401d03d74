import { createHash } from 'node:crypto';
import type { Config } from '../../config.js';
import { DEFAULT_AGENT_PERMISSIONS, type AgentActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { appError } from '../../platform/errors.js';
import type { AgentsRepository, BotRow } from './repository.js';
import type { BotResponse, JoinBody } from './schemas.js';

/** `bot_` + the first 32 hex characters of SHA-256 of the raw public key (CONTRACT §4). */
export function botIdFor(publicKey: string): string {
  return `bot_${createHash('sha256').update(Buffer.from(publicKey, 'base64url')).digest('hex').slice(0, 32)}`;
}

function present(row: BotRow): BotResponse {
  return {
    botId: row.bot_id,
    name: row.name,
    trustTier: row.trust_tier,
    verified: row.trust_tier === 'VERIFIED',
    keyVersion: 1,
    permissions: row.permissions,
    source: row.source,
    createdAt: row.created_at.toISOString(),
    ...(row.linked_human_id ? { linkedHumanId: row.linked_human_id } : {}),
    ...(row.wallet_address ? { walletAddress: row.wallet_address } : {}),
    ...(row.wallet_chain_id ? { walletChainId: row.wallet_chain_id } : {}),
    ...(row.verified_at ? { verifiedAt: row.verified_at.toISOString() } : {}),
  };
}

export function createAgentsService(deps: { config: Config; repository: AgentsRepository; transactor: Transactor; clock: Clock }) {
  const { config, repository, transactor, clock } = deps;
  const registry = new Map(config.agentBotRegistry.map((b) => [b.botId, b]));
  const registryKeyOwner = new Map(config.agentBotRegistry.flatMap((b) => b.publicKeys.map((k) => [k.publicKey, b.botId] as const)));

  return {
    /**
     * Self-serve join (the request was signed by `publicKey` itself). A new bot answers `created: true`;
     * joining again with the same key answers the existing bot.
     */
    async join(body: JoinBody): Promise<{ created: boolean; bot: BotResponse }> {
      if (!config.agentSelfServeJoin) throw appError('AGENT_SELF_SERVE_JOIN_DISABLED');
      const botId = botIdFor(body.publicKey);
      const reg = registry.get(botId);
      if (reg) {
        const version = reg.publicKeys.find((k) => k.publicKey === body.publicKey)?.version ?? 1;
        return {
          created: false,
          bot: {
            botId,
            name: body.name,
            trustTier: reg.verified ? 'VERIFIED' : 'UNVERIFIED',
            verified: reg.verified,
            keyVersion: version,
            permissions: reg.permissions,
            source: 'REGISTRY',
          },
        };
      }
      const owner = registryKeyOwner.get(body.publicKey);
      if (owner) throw appError('AGENT_KEY_IN_USE', { message: `This key belongs to the registry bot ${owner}` });
      const inserted = await repository.insertSelfServeBot({ botId, ...body, permissions: DEFAULT_AGENT_PERMISSIONS });
      if (inserted) return { created: true, bot: present(inserted) };
      const existing = await repository.findBot(botId);
      if (!existing) throw appError('AGENT_JOIN_RACE');
      return { created: false, bot: present(existing) };
    },

    /**
     * Upgrades a self-serve bot to VERIFIED (seed §5.3). The auth hook has already checked, in order, the bot
     * signature, the agentproof for this route and nonce, and AgentBook (`actor.proven`); this binds the proven
     * wallet, chain and derived linked human to the bot. Verifying again rebinds (a new wallet, or the same).
     */
    async verify(actor: AgentActor): Promise<BotResponse> {
      if (registry.has(actor.botId)) {
        throw appError('AGENT_PERMISSION_DENIED', { message: 'Registry bots are verified by the operator (AGENT_BOT_REGISTRY)' });
      }
      const proven = actor.proven;
      if (!proven) throw new Error('POST /v1/agents/verify reached the service without a proven wallet');
      return withTransaction(transactor, async (tx) => {
        const row = await repository.bindWallet(tx, {
          botId: actor.botId,
          walletAddress: proven.address,
          walletChainId: proven.chainId,
          linkedHumanId: proven.linkedHumanId,
          at: new Date(clock.now()),
        });
        if (row === 'wallet-in-use') throw appError('AGENT_WALLET_IN_USE');
        if (!row) throw appError('AGENT_BOT_UNREGISTERED');
        return { ...present(row), keyVersion: actor.keyVersion };
      });
    },
  };
}
