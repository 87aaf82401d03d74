import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';

export async function findPreferences(db: Db, actorId: string): Promise<{ preferences: Record<string, unknown>; updated_at: Date } | null> {
  const row = await db
    .selectFrom('user_preferences')
    .select(['preferences', 'updated_at'])
    .where('actor_id', '=', actorId)
    .executeTakeFirst();
  return row ?? null;
}

/** Merges `patch` into the stored document atomically (jsonb ||), creating the row on first write. */
export async function mergePreferences(
  db: Db,
  actorId: string,
  patch: Record<string, unknown>,
  now: Date,
): Promise<{ preferences: Record<string, unknown>; updated_at: Date }> {
  const json = JSON.stringify(patch);
  return db
    .insertInto('user_preferences')
    .values({ actor_id: actorId, preferences: json, updated_at: now })
    .onConflict((oc) =>
      oc.column('actor_id').doUpdateSet({
        preferences: sql`user_preferences.preferences || ${json}::jsonb`,
        updated_at: now,
      }),
    )
    .returning(['preferences', 'updated_at'])
    .executeTakeFirstOrThrow();
}
