import { sql } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { IdentityTables } from '../tables.js';
import { expiringRowsById } from '../../platform/db/retention.js';
import type { HumanTier } from '../../platform/auth/types.js';
import type { LoginChallengesTable } from '../rows.js';

/** SQL of the human identity records, their bindings to actors, login challenges and verified human actions. */

/**
 * The tier recorded for `linkedHumanId` when the identity records bind it to `actorId` and the binding's
 * session has not ended at `now`; null when they do not (no binding, a binding to another human, an ended session).
 */
export async function findBoundTier(
  db: Queryable<IdentityTables>,
  actorId: string,
  linkedHumanId: string,
  now: Date,
): Promise<HumanTier | null> {
  const row = await db
    .selectFrom('actor_bindings as b')
    .innerJoin('human_identities as h', 'h.linked_human_id', 'b.linked_human_id')
    .select('h.tier')
    .where('b.actor_id', '=', actorId)
    .where('b.linked_human_id', '=', linkedHumanId)
    .where((eb) => eb.or([eb('b.expires_at', 'is', null), eb('b.expires_at', '>', now)]))
    .executeTakeFirst();
  return row?.tier ?? null;
}

/** The actors bound to these linked humans (whether or not their sessions ended), most recently bound first. */
export async function actorsOfHumans(db: Queryable<IdentityTables>, linkedHumanIds: readonly string[]) {
  if (linkedHumanIds.length === 0) return [];
  return db
    .selectFrom('actor_bindings')
    .select(['actor_id', 'linked_human_id'])
    .where('linked_human_id', 'in', [...new Set(linkedHumanIds)])
    .orderBy('bound_at', 'desc')
    .execute();
}

/** The actor's binding, whether or not its session has ended (a proof renews it), or null. */
export async function findActorBinding(db: Queryable<IdentityTables>, actorId: string) {
  return (
    (await db.selectFrom('actor_bindings').select(['linked_human_id', 'expires_at']).where('actor_id', '=', actorId).executeTakeFirst()) ??
    null
  );
}

/**
 * Records `linkedHumanId` at `tier` or raises its tier to `tier`: a tier is never lowered (L3 stays L3 after
 * a secondary-provider proof). `provider` is the provider whose proof first established the human; it never
 * changes. Returns the tier recorded now.
 */
export async function raiseHumanTier(
  tx: Tx<IdentityTables>,
  linkedHumanId: string,
  tier: 'L2' | 'L3',
  provider: string,
  now: Date,
): Promise<'L2' | 'L3'> {
  const row = await tx
    .insertInto('human_identities')
    .values({ linked_human_id: linkedHumanId, tier, provider, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.column('linked_human_id').doUpdateSet({
        tier: sql<'L2' | 'L3'>`case when human_identities.tier = 'L3' or excluded.tier = 'L3' then 'L3' else 'L2' end`,
        updated_at: now,
      }),
    )
    .returning('tier')
    .executeTakeFirstOrThrow();
  return row.tier;
}

/**
 * Binds `actorId` to `linkedHumanId` for a World ID login session ending at `expiresAt`, in one statement so
 * that concurrent logins cannot interleave. It takes over an existing binding only when that binding is to
 * the same human, its session has ended, or its human was established by a secondary provider (a World ID
 * login upgrades it); a live binding to another World ID human stays, and the result is false.
 */
export async function bindActorAtLogin(
  tx: Tx<IdentityTables>,
  actorId: string,
  linkedHumanId: string,
  now: Date,
  expiresAt: Date,
): Promise<boolean> {
  const { rows } = await sql<{ actor_id: string }>`
    insert into actor_bindings as b (actor_id, linked_human_id, bound_at, expires_at)
    values (${actorId}, ${linkedHumanId}, ${now}, ${expiresAt})
    on conflict (actor_id) do update
       set linked_human_id = excluded.linked_human_id,
           bound_at = case when b.linked_human_id = excluded.linked_human_id then b.bound_at else excluded.bound_at end,
           expires_at = excluded.expires_at
     where b.linked_human_id = excluded.linked_human_id
        or b.expires_at <= ${now}
        or not exists (select 1 from human_identities h where h.linked_human_id = b.linked_human_id and h.provider = 'world_id')
    returning b.actor_id`.execute(tx);
  return rows.length === 1;
}

/**
 * Binds `actorId` to `linkedHumanId` (new binding) or moves the session of its existing binding to the same
 * human on to `expiresAt` (never shortened; a binding without a session keeps none). Null when the actor is
 * bound to another human (a login changed it meanwhile). Returns the session end.
 */
export async function renewActorBinding(
  tx: Tx<IdentityTables>,
  actorId: string,
  linkedHumanId: string,
  now: Date,
  expiresAt: Date,
): Promise<{ expires_at: Date | null } | null> {
  const { rows } = await sql<{ expires_at: Date | null }>`
    insert into actor_bindings as b (actor_id, linked_human_id, bound_at, expires_at)
    values (${actorId}, ${linkedHumanId}, ${now}, ${expiresAt})
    on conflict (actor_id) do update
       set expires_at = case when b.expires_at is null then null else greatest(b.expires_at, excluded.expires_at) end
     where b.linked_human_id = excluded.linked_human_id
    returning b.expires_at`.execute(tx);
  return rows[0] ?? null;
}

/**
 * Ends the live login session of `actorId`'s binding to `linkedHumanId` at `now` and answers when it would have
 * ended; null when there is no such live session (another human, no session, or an ended one).
 */
export async function endLoginSession(tx: Tx<IdentityTables>, actorId: string, linkedHumanId: string, now: Date): Promise<Date | null> {
  const { rows } = await sql<{ ended: Date }>`
    update actor_bindings b set expires_at = ${now}
      from (select expires_at from actor_bindings where actor_id = ${actorId} for update) old
     where b.actor_id = ${actorId} and b.linked_human_id = ${linkedHumanId} and b.expires_at > ${now}
    returning old.expires_at as ended`.execute(tx);
  return rows[0]?.ended ?? null;
}

export async function insertLoginChallenge(
  db: Queryable<IdentityTables>,
  row: Omit<LoginChallengesTable, 'used_at' | 'linked_human_id'>,
): Promise<void> {
  await db.insertInto('login_challenges').values(row).execute();
}

/**
 * Deletes up to `limit` challenges that expired before `before` (they can only ever answer CHALLENGE_EXPIRED),
 * oldest first (from `from` on: the retention command resumes where its last batch stopped), skipping one a
 * verify holds locked; answers their expiries.
 */
export const expiredChallengeRows = expiringRowsById<IdentityTables>('login_challenges');

export async function findLoginChallenge(db: Queryable<IdentityTables>, id: string) {
  return (await db.selectFrom('login_challenges').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/**
 * Uses a challenge once: the conditional UPDATE succeeds for one caller only, and only before it expires.
 * False when it was used already or has expired (the caller reads it again to say which).
 */
export async function claimLoginChallenge(tx: Tx<IdentityTables>, id: string, linkedHumanId: string, now: Date): Promise<boolean> {
  const row = await tx
    .updateTable('login_challenges')
    .set({ used_at: now, linked_human_id: linkedHumanId })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id')
    .executeTakeFirst();
  return Boolean(row);
}

/** Whether (provider, action, nullifier_hash) was recorded already (checked before asking a provider). */
export async function isNullifierUsed(
  db: Queryable<IdentityTables>,
  provider: string,
  action: string,
  nullifierHash: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('verified_human_actions')
    .select('id')
    .where('provider', '=', provider)
    .where('action', '=', action)
    .where('nullifier_hash', '=', nullifierHash)
    .executeTakeFirst();
  return Boolean(row);
}

/** Inserts a verified action; null when (provider, action, nullifier_hash) was used before (unique key). */
export async function insertVerifiedAction(
  db: Queryable<IdentityTables>,
  row: { id: string; action: string; linkedHumanId: string; provider: string; nullifierHash: string; at: Date },
): Promise<string | null> {
  const inserted = await db
    .insertInto('verified_human_actions')
    .values({
      id: row.id,
      action: row.action,
      linked_human_id: row.linkedHumanId,
      provider: row.provider,
      nullifier_hash: row.nullifierHash,
      created_at: row.at,
    })
    .onConflict((oc) => oc.columns(['provider', 'action', 'nullifier_hash']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id ?? null;
}

/**
 * Locks the oldest open verified action for `action` (optionally proven by `linkedHumanId`), skipping rows
 * another transaction holds, so concurrent operations never take the same one.
 */
export async function lockOpenAction(tx: Tx<IdentityTables>, action: string, linkedHumanId?: string): Promise<string | null> {
  let pick = tx
    .selectFrom('verified_human_actions')
    .select('id')
    .where('action', '=', action)
    .where('consumed_at', 'is', null)
    .orderBy('created_at')
    .limit(1)
    .forUpdate()
    .skipLocked();
  if (linkedHumanId !== undefined) pick = pick.where('linked_human_id', '=', linkedHumanId);
  return (await pick.executeTakeFirst())?.id ?? null;
}

export async function markActionConsumed(tx: Tx<IdentityTables>, id: string, consumedBy: string, at: Date): Promise<void> {
  await tx
    .updateTable('verified_human_actions')
    .set({ consumed_at: at, consumed_by: consumedBy })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .execute();
}

export async function hasOpenAction(db: Queryable<IdentityTables>, action: string): Promise<boolean> {
  const row = await db
    .selectFrom('verified_human_actions')
    .select('id')
    .where('action', '=', action)
    .where('consumed_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}
