import type { Queryable, Tx } from '../../platform/db/database.js';
import type { ReadersTables } from '../tables.js';

/** SQL of display names and the names given up (migrations/0009_readers_display_names.sql). */

export interface NameRow {
  actor_id: string;
  name: string;
  chosen_at: Date;
  created_at: Date;
}

/** The actor's name, locked until the transaction ends (a change and its history row are one step). */
export async function lockName(tx: Tx<ReadersTables>, actorId: string): Promise<NameRow | null> {
  const row = await tx
    .selectFrom('display_names')
    .select(['actor_id', 'name', 'chosen_at', 'created_at'])
    .where('actor_id', '=', actorId)
    .forUpdate()
    .executeTakeFirst();
  return row ?? null;
}

/** Gives the actor `name` (a first name, or a change); the unique key refuses a name another actor holds (23505). */
export async function upsertName(
  tx: Tx<ReadersTables>,
  row: { actorId: string; name: string; nameKey: string; at: Date },
): Promise<NameRow> {
  return tx
    .insertInto('display_names')
    .values({ actor_id: row.actorId, name: row.name, name_key: row.nameKey, chosen_at: row.at, created_at: row.at })
    .onConflict((oc) => oc.column('actor_id').doUpdateSet({ name: row.name, name_key: row.nameKey, chosen_at: row.at }))
    .returning(['actor_id', 'name', 'chosen_at', 'created_at'])
    .executeTakeFirstOrThrow();
}

export async function recordGivenUp(
  tx: Tx<ReadersTables>,
  row: { id: string; actorId: string; name: string; chosenAt: Date; replacedAt: Date },
) {
  await tx
    .insertInto('display_name_history')
    .values({ id: row.id, actor_id: row.actorId, name: row.name, chosen_at: row.chosenAt, replaced_at: row.replacedAt })
    .execute();
}

export async function namesOf(db: Queryable<ReadersTables>, actorIds: readonly string[]): Promise<NameRow[]> {
  if (actorIds.length === 0) return [];
  return db
    .selectFrom('display_names')
    .select(['actor_id', 'name', 'chosen_at', 'created_at'])
    .where('actor_id', 'in', [...new Set(actorIds)])
    .execute();
}

export async function findByKey(db: Queryable<ReadersTables>, nameKey: string): Promise<NameRow | null> {
  const row = await db
    .selectFrom('display_names')
    .select(['actor_id', 'name', 'chosen_at', 'created_at'])
    .where('name_key', '=', nameKey)
    .executeTakeFirst();
  return row ?? null;
}

/** The names the actor gave up, most recently given up first. */
export async function givenUp(db: Queryable<ReadersTables>, actorId: string, limit: number) {
  return db
    .selectFrom('display_name_history')
    .select(['name', 'chosen_at', 'replaced_at'])
    .where('actor_id', '=', actorId)
    .orderBy('replaced_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}
