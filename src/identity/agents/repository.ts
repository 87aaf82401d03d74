import { sql } from 'kysely';
import type { SelfServeBot } from '../../platform/auth/bot-directory.js';
import { isUniqueViolation, type Db, type Tx } from '../../platform/db/database.js';
import type { IdentityTables } from '../tables.js';
import { reusableQuery } from '../../platform/db/reusable-query.js';

/** SQL of the agents module: free functions taking the database or the caller's transaction first. */

export interface BotRow {
  bot_id: string;
  name: string;
  trust_tier: 'UNVERIFIED' | 'VERIFIED';
  permissions: string[];
  source: 'SELF_SERVE' | 'REGISTRY';
  created_at: Date;
  linked_human_id: string | null;
  wallet_address: string | null;
  wallet_chain_id: string | null;
  verified_at: Date | null;
}

const BOT_COLUMNS = [
  'bot_id',
  'name',
  'trust_tier',
  'permissions',
  'source',
  'created_at',
  'linked_human_id',
  'wallet_address',
  'wallet_chain_id',
  'verified_at',
] as const;

export interface KeyRow {
  version: number;
  public_key: string;
  created_at: Date;
  revoked_at: Date | null;
}

export interface SelfServeBotInput {
  botId: string;
  name: string;
  description?: string;
  operatorContact?: string;
  publicKey: string;
  permissions: readonly string[];
}

export type InsertOutcome = BotRow | 'key-in-use' | null;

type Column = (string | null)[];

// runs on every join: built once and sent by name (platform/db/reusable-query.ts); each column is one array value
const insertBotsStatement = reusableQuery(
  (_db: Db<IdentityTables>, ids: Column, names: Column, descriptions: Column, contacts: Column, keys: Column, permissions: Column) =>
    sql<{ bot_id: string; created_at: Date }>`
      WITH input AS (
        SELECT * FROM unnest(${ids}::text[], ${names}::text[], ${descriptions}::text[], ${contacts}::text[], ${keys}::text[], ${permissions}::text[])
          AS t(bot_id, name, description, operator_contact, public_key, permissions)
      ), bot AS (
        INSERT INTO bots (bot_id, name, description, operator_contact, source, permissions)
        SELECT bot_id, name, description, operator_contact, 'SELF_SERVE', string_to_array(permissions, ' ') FROM input
        ON CONFLICT (bot_id) DO NOTHING
        RETURNING bot_id, created_at
      ), key AS (
        INSERT INTO bot_keys (bot_id, version, public_key) SELECT bot.bot_id, 1, input.public_key FROM bot JOIN input USING (bot_id)
      )
      SELECT * FROM bot`,
);

/**
 * Bots (distinct ids) and their version-1 keys in one statement, one outcome per input: the bot, or null when it
 * already existed. A key that is already another bot's added key (bot_keys.public_key is unique) fails the
 * statement as a whole; each bot is then inserted alone, so that only that one is refused ('key-in-use').
 * The database answers only what it decides, each new bot's id and creation time; the rest of the row is the
 * input as written (a new self-serve bot is UNVERIFIED, with no wallet), so no column is parsed back.
 */
export async function insertBots(db: Db<IdentityTables>, inputs: SelfServeBotInput[]): Promise<InsertOutcome[]> {
  const column = (f: (i: SelfServeBotInput) => string | undefined) => inputs.map((i) => f(i) ?? null);
  const rows = await insertBotsStatement(
    db,
    column((i) => i.botId),
    column((i) => i.name),
    column((i) => i.description),
    column((i) => i.operatorContact),
    column((i) => i.publicKey),
    column((i) => i.permissions.join(' ')),
  ).catch((err: unknown) => {
    if (isUniqueViolation(err)) return null;
    throw err;
  });
  if (!rows) {
    if (inputs.length === 1) return ['key-in-use'];
    return (await Promise.all(inputs.map((input) => insertBots(db, [input])))).flat();
  }
  const createdAt = new Map(rows.map((row) => [row.bot_id, row.created_at]));
  return inputs.map((input) => {
    const created = createdAt.get(input.botId);
    return created ? newSelfServeBot(input, created) : null;
  });
}

function newSelfServeBot(input: SelfServeBotInput, createdAt: Date): BotRow {
  return {
    bot_id: input.botId,
    name: input.name,
    trust_tier: 'UNVERIFIED',
    permissions: [...input.permissions],
    source: 'SELF_SERVE',
    created_at: createdAt,
    linked_human_id: null,
    wallet_address: null,
    wallet_chain_id: null,
    verified_at: null,
  };
}

export async function findBot(db: Db<IdentityTables>, botId: string): Promise<BotRow | null> {
  const row = await db.selectFrom('bots').select(BOT_COLUMNS).where('bot_id', '=', botId).executeTakeFirst();
  return row ?? null;
}

/**
 * The names of the bots among `botIds` that have a row (registry bots have none), in one query: the ids go as one
 * array, so the statement is built once and runs by name whatever their number (platform/db/reusable-query.ts).
 */
export async function botNames(db: Db<IdentityTables>, botIds: readonly string[]): Promise<{ bot_id: string; name: string }[]> {
  if (botIds.length === 0) return [];
  return namesOf(db, [...botIds]);
}

const namesOf = reusableQuery((db: Db<IdentityTables>, botIds: string[]) =>
  db
    .selectFrom('bots')
    .select(['bot_id', 'name'])
    .where(sql<boolean>`bot_id = any(${botIds}::text[])`),
);

/** The bot's keys, active and revoked, oldest first. */
export async function listKeys(executor: Db<IdentityTables> | Tx<IdentityTables>, botId: string): Promise<KeyRow[]> {
  return executor
    .selectFrom('bot_keys')
    .select(['version', 'public_key', 'created_at', 'revoked_at'])
    .where('bot_id', '=', botId)
    .orderBy('version')
    .execute();
}

/** Locks a self-serve bot for a key change; null when there is no such self-serve bot. */
export async function lockBot(tx: Tx<IdentityTables>, botId: string): Promise<BotRow | null> {
  const row = await tx
    .selectFrom('bots')
    .select(BOT_COLUMNS)
    .where('bot_id', '=', botId)
    .where('source', '=', 'SELF_SERVE')
    .forUpdate()
    .executeTakeFirst();
  return row ?? null;
}

/** Adds a key under the next version (versions are never reused); `key-in-use` when any bot already has it. */
export async function addKey(tx: Tx<IdentityTables>, botId: string, publicKey: string): Promise<KeyRow | 'key-in-use'> {
  try {
    const result = await sql<KeyRow>`
      INSERT INTO bot_keys (bot_id, version, public_key)
      SELECT ${botId}, coalesce(max(version), 0) + 1, ${publicKey} FROM bot_keys WHERE bot_id = ${botId}
      RETURNING version, public_key, created_at, revoked_at`.execute(tx);
    return result.rows[0]!;
  } catch (err) {
    if (isUniqueViolation(err)) return 'key-in-use';
    throw err;
  }
}

/** Revokes one active key; false when the bot has no such active key. */
export async function revokeKey(tx: Tx<IdentityTables>, botId: string, version: number, at: Date): Promise<boolean> {
  const result = await tx
    .updateTable('bot_keys')
    .set({ revoked_at: at })
    .where('bot_id', '=', botId)
    .where('version', '=', version)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Marks a self-serve bot VERIFIED with the wallet, chain and linked human its proof established. A wallet
 * bound to another bot is refused by the unique index (`wallet-in-use`); null when the bot is gone.
 */
export async function bindWallet(
  tx: Tx<IdentityTables>,
  input: { botId: string; walletAddress: string; walletChainId: string; linkedHumanId: string; at: Date },
): Promise<BotRow | 'wallet-in-use' | null> {
  try {
    const row = await tx
      .updateTable('bots')
      .set({
        trust_tier: 'VERIFIED',
        wallet_address: input.walletAddress,
        wallet_chain_id: input.walletChainId,
        linked_human_id: input.linkedHumanId,
        verified_at: input.at,
        updated_at: input.at,
      })
      .where('bot_id', '=', input.botId)
      .where('source', '=', 'SELF_SERVE')
      .returning(BOT_COLUMNS)
      .executeTakeFirst();
    return row ?? null;
  } catch (err) {
    if (isUniqueViolation(err)) return 'wallet-in-use';
    throw err;
  }
}

/** A self-serve bot with its signing keys, in one query (the auth hook runs this on every agent write). */
export async function findSigningBot(db: Db<IdentityTables>, botId: string): Promise<SelfServeBot | null> {
  const row = await db
    .selectFrom('bots')
    .select([
      'bot_id',
      'permissions',
      'trust_tier',
      'linked_human_id',
      'wallet_address',
      'wallet_chain_id',
      sql<
        { version: number; publicKey: string }[]
      >`(select coalesce(json_agg(json_build_object('version', k.version, 'publicKey', k.public_key) order by k.version), '[]'::json) from bot_keys k where k.bot_id = bots.bot_id and k.revoked_at is null)`.as(
        'keys',
      ),
    ])
    .where('bot_id', '=', botId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    botId: row.bot_id,
    keys: row.keys,
    permissions: row.permissions,
    verified: row.trust_tier === 'VERIFIED',
    linkedHumanId: row.linked_human_id ?? undefined,
    walletAddress: row.wallet_address ?? undefined,
    walletChainId: row.wallet_chain_id ?? undefined,
  };
}

/** What a bot's public profile shows (no contact, wallet or keys). */
export async function botProfile(db: Db<IdentityTables>, botId: string) {
  const row = await db
    .selectFrom('bots')
    .select(['bot_id', 'name', 'description', 'trust_tier', 'created_at'])
    .where('bot_id', '=', botId)
    .executeTakeFirst();
  return row ?? null;
}
