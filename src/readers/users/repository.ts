import { CompiledQuery } from 'kysely';
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
  const { rows } = await db.executeQuery<{ preferences: Record<string, unknown>; updated_at: Date }>(
    CompiledQuery.raw(MERGE_PREFERENCES, [actorId, JSON.stringify(patch), now]),
  );
  return rows[0]!;
}

/**
 * The merge as a fixed SQL text ($1 actor id, $2 the patch as JSON, $3 the time): it runs once per human signed
 * write, and building it with the query builder cost about a tenth of the request's CPU (docs/decisions.md, "Hot
 * statements as fixed SQL").
 */
const MERGE_PREFERENCES = `insert into "user_preferences" ("actor_id", "preferences", "updated_at") values ($1, $2, $3)
  on conflict ("actor_id") do update set "preferences" = user_preferences.preferences || $2::jsonb, "updated_at" = $3
  returning "preferences", "updated_at"`;
