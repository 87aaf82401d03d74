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

/** One reader's patch of their preferences, written at `at`. */
export interface PreferencesPatch {
  actorId: string;
  patch: Record<string, unknown>;
  at: Date;
}

/**
 * Merges each patch into its actor's stored document atomically (jsonb ||), creating the row on a first write: one
 * statement for all of them (concurrent writes share it: readers/users/service.ts). The actors must be distinct
 * (one statement cannot change a row twice). Answers the stored document of each patch, in their order.
 */
export async function mergePreferences(
  db: Db,
  patches: readonly PreferencesPatch[],
): Promise<{ preferences: Record<string, unknown>; updated_at: Date }[]> {
  const { rows } = await db.executeQuery<{ actor_id: string; preferences: Record<string, unknown>; updated_at: Date }>(
    CompiledQuery.raw(MERGE_PREFERENCES, [
      patches.map((p) => p.actorId),
      patches.map((p) => JSON.stringify(p.patch)),
      patches.map((p) => p.at.toISOString()),
    ]),
  );
  const stored = new Map(rows.map((r) => [r.actor_id, r]));
  return patches.map((p) => stored.get(p.actorId)!);
}

/**
 * The merge as a fixed SQL text ($1 actor ids, $2 the patches as JSON, $3 the times): it runs on every human signed
 * write, and building it with the query builder cost about a tenth of the request's CPU (docs/decisions.md, "Hot
 * statements as fixed SQL").
 */
const MERGE_PREFERENCES = `insert into "user_preferences" ("actor_id", "preferences", "updated_at")
  select t.actor_id, t.patch::jsonb, t.at from unnest($1::text[], $2::text[], $3::timestamptz[]) as t(actor_id, patch, at)
  on conflict ("actor_id") do update set "preferences" = user_preferences.preferences || excluded.preferences, "updated_at" = excluded.updated_at
  returning "actor_id", "preferences", "updated_at"`;
