import { sql } from 'kysely';
import { reusableQuery } from '../../platform/db/reusable-query.js';
import type { Db } from '../../platform/db/database.js';
import type { ReadersTables } from '../tables.js';

export async function findPreferences(
  db: Db<ReadersTables>,
  actorId: string,
): Promise<{ preferences: Record<string, unknown>; updated_at: Date } | null> {
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
  db: Db<ReadersTables>,
  patches: readonly PreferencesPatch[],
): Promise<{ preferences: Record<string, unknown>; updated_at: Date }[]> {
  const rows = await mergeAll(
    db,
    patches.map((p) => p.actorId),
    patches.map((p) => JSON.stringify(p.patch)),
    patches.map((p) => p.at.toISOString()),
  );
  const stored = new Map(rows.map((r) => [r.actor_id, r]));
  return patches.map((p) => stored.get(p.actorId)!);
}

// runs on every human signed write: built once (platform/db/reusable-query.ts)
const mergeAll = reusableQuery((db: Db<ReadersTables>, actorIds: string[], patches: string[], times: string[]) =>
  db
    .insertInto('user_preferences')
    .columns(['actor_id', 'preferences', 'updated_at'])
    .expression(
      sql`select t.actor_id, t.patch::jsonb, t.at from unnest(${actorIds}::text[], ${patches}::text[], ${times}::timestamptz[]) as t(actor_id, patch, at)`,
    )
    .onConflict((oc) =>
      oc.column('actor_id').doUpdateSet({
        preferences: sql`user_preferences.preferences || excluded.preferences`,
        updated_at: (eb) => eb.ref('excluded.updated_at'),
      }),
    )
    .returning(['actor_id', 'preferences', 'updated_at']),
);
