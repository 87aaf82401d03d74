import { createHash } from 'node:crypto';
import type { Config } from '../../config.js';
import { DEFAULT_AGENT_PERMISSIONS, type AgentActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, Tx } from '../../platform/db/database.js';
import type { IdentityTables } from '../tables.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { statementBatcher } from '../../platform/db/bulk/statement-batcher.js';
import { appError } from '../../platform/errors.js';
import { publicKeyObject, verifyAgentSignature } from '../../platform/auth/agent-signature.js';
import type { BotRow, InsertOutcome, KeyRow, SelfServeBotInput } from './repository.js';
import * as repository from './repository.js';
import type { AddKeyBody, BotResponse, JoinBody, RevokeKeyBody } from './schemas.js';

/** What a new key signs to prove it is held by whoever adds it (so nobody can claim someone else's key). */
export const keyProofMessage = (aud: string, botId: string, publicKey: string) => `svc-agent-key-v1:${aud}.${botId}.${publicKey}`;

const presentKey = (k: KeyRow) => ({
  version: k.version,
  publicKey: k.public_key,
  createdAt: k.created_at.toISOString(),
  ...(k.revoked_at ? { revokedAt: k.revoked_at.toISOString() } : {}),
});

/** `bot_` + the first 32 hex characters of SHA-256 of the raw public key. */
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

export function createAgentsService(deps: {
  config: Config;
  db: Db<IdentityTables>;
  transactor: Transactor<IdentityTables>;
  clock: Clock;
}) {
  const { config, db, transactor, clock } = deps;
  /**
   * Inserts the bot and its version-1 key (atomic); null when the bot already exists, 'key-in-use' when the key
   * is already another bot's. Joins that arrive together share one statement: up to 4 statements of up to 64
   * bots each in flight at once, never the same bot twice in one.
   */
  const insertSelfServeBot = statementBatcher<SelfServeBotInput, InsertOutcome>({
    maxBatch: 64,
    maxInFlight: 4,
    key: (input) => input.botId,
    run: (inputs) => repository.insertBots(db, inputs),
  });
  const registry = new Map(config.agentBotRegistry.map((b) => [b.botId, b]));
  const registryKeyOwner = new Map(config.agentBotRegistry.flatMap((b) => b.publicKeys.map((k) => [k.publicKey, b.botId] as const)));

  /** A key change under the bot's row lock, so concurrent revocations cannot leave a bot without a key. */
  async function changeKeys(actor: AgentActor, change: (tx: Tx<IdentityTables>, keys: KeyRow[]) => Promise<number>): Promise<BotResponse> {
    if (registry.has(actor.botId)) {
      throw appError('AGENT_PERMISSION_DENIED', { message: 'The keys of registry bots are set by the operator (AGENT_BOT_REGISTRY)' });
    }
    return withTransaction(transactor, async (tx) => {
      const bot = await repository.lockBot(tx, actor.botId);
      if (!bot) throw appError('AGENT_BOT_UNREGISTERED');
      const keyVersion = await change(tx, await repository.listKeys(tx, actor.botId));
      const keys = await repository.listKeys(tx, actor.botId);
      return { ...present(bot), keyVersion, keys: keys.map(presentKey) };
    });
  }

  return {
    /** A self-serve bot with its signing keys, in one query (the auth hook's lookup on every agent write). */
    findSigningBot: (botId: string) => repository.findSigningBot(db, botId),

    /**
     * The display names of bots, by id, in one query (the reader site shows names where it used to show ids).
     * A bot without a name on record (a registry bot, an unknown id) is absent from the map.
     */
    names: (botIds: Iterable<string>) => namesOfBots(db, botIds),

    /** A bot's public profile (its name, description, trust tier, when it joined), or null for an unknown id. */
    async profile(botId: string) {
      const row = await repository.botProfile(db, botId);
      return (
        row && {
          botId: row.bot_id,
          name: row.name,
          description: row.description,
          verified: row.trust_tier === 'VERIFIED',
          joinedAt: row.created_at.toISOString(),
        }
      );
    },

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
      const inserted = await insertSelfServeBot({ botId, ...body, permissions: DEFAULT_AGENT_PERMISSIONS });
      if (inserted === 'key-in-use') throw appError('AGENT_KEY_IN_USE', { message: 'This key is a signing key of another bot' });
      if (inserted) return { created: true, bot: present(inserted) };
      const [existing, keys] = await Promise.all([repository.findBot(db, botId), repository.listKeys(db, botId)]);
      if (!existing) throw appError('AGENT_JOIN_RACE');
      if (keys.find((k) => k.public_key === body.publicKey)?.revoked_at) throw appError('AGENT_KEY_REVOKED');
      return { created: false, bot: present(existing) };
    },

    /**
     * Adds a signing key (keys carry versions chosen by x-agent-key-version). The request is signed by an active key of the bot; `keyProof` shows the new key's holder
     * agreed. The new key gets the next version.
     */
    async addKey(actor: AgentActor, body: AddKeyBody): Promise<BotResponse> {
      const proofKey = publicKeyObject(body.addKey.publicKey);
      const message = Buffer.from(keyProofMessage(config.agentSignedWriteAud, actor.botId, body.addKey.publicKey), 'utf8');
      if (!proofKey || !verifyAgentSignature(proofKey, message, Buffer.from(body.addKey.keyProof, 'base64url'))) {
        throw appError('AGENT_KEY_PROOF_INVALID');
      }
      if (registryKeyOwner.has(body.addKey.publicKey)) throw appError('AGENT_KEY_IN_USE');
      return changeKeys(actor, async (tx) => {
        const added = await repository.addKey(tx, actor.botId, body.addKey.publicKey);
        if (added === 'key-in-use') throw appError('AGENT_KEY_IN_USE', { message: 'This key is already a signing key of a bot' });
        return added.version;
      });
    },

    /** Revokes a signing key; the bot keeps at least one (409 AGENT_LAST_KEY). */
    async revokeKey(actor: AgentActor, body: RevokeKeyBody): Promise<BotResponse> {
      return changeKeys(actor, async (tx, keys) => {
        const active = keys.filter((k) => !k.revoked_at);
        if (!active.some((k) => k.version === body.revokeKeyVersion)) {
          throw appError('NOT_FOUND', { message: `The bot has no active key version ${body.revokeKeyVersion}` });
        }
        if (active.length === 1) throw appError('AGENT_LAST_KEY');
        await repository.revokeKey(tx, actor.botId, body.revokeKeyVersion, new Date(clock.now()));
        return actor.keyVersion;
      });
    },

    /**
     * Upgrades a self-serve bot to VERIFIED. The auth hook has already checked, in order, the bot
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

/**
 * The display names of bots, by id, in one query on `db` (the primary or a read replica): a bot without a name on
 * record is absent from the map. The newsroom's rankings name their bots through this (the BotNames port).
 */
export async function namesOfBots(db: Db<IdentityTables>, botIds: Iterable<string>): Promise<Map<string, string>> {
  const rows = await repository.botNames(db, [...new Set(botIds)]);
  return new Map(rows.map((row) => [row.bot_id, row.name]));
}
