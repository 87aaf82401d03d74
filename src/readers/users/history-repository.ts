import { sql } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { ReadersTables } from '../tables.js';

/** SQL of the personalization history (table reading_history). Every query is scoped to one actor. */

/**
 * Records one read of a story when, and only when, the reader's stored preferences say
 * `personalization: true`: one statement, so a read racing a reader switching personalization off is either
 * recorded before the switch or not at all. The first read inserts the row, later ones move last_read_at and
 * the count. Answers whether a read was recorded.
 */
export async function recordReadIfAllowed(tx: Tx<ReadersTables>, actorId: string, storyId: string, at: Date): Promise<boolean> {
  const result = await sql`
    insert into reading_history (actor_id, story_id, first_read_at, last_read_at)
    select ${actorId}, ${storyId}, ${at}, ${at}
    where exists (
      select 1 from user_preferences p where p.actor_id = ${actorId} and p.preferences -> 'personalization' = 'true'::jsonb
    )
    on conflict (actor_id, story_id) do update
      set last_read_at = greatest(reading_history.last_read_at, excluded.last_read_at),
          read_count = reading_history.read_count + 1`.execute(tx);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** Erases the whole history of `actorId`; answers how many stories it held. */
export async function deleteHistory(tx: Tx<ReadersTables>, actorId: string): Promise<number> {
  const result = await tx.deleteFrom('reading_history').where('actor_id', '=', actorId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Every story `actorId` read, most recent read first (the export). */
export async function allHistory(db: Queryable<ReadersTables>, actorId: string) {
  return db
    .selectFrom('reading_history')
    .select(['story_id', 'first_read_at', 'last_read_at', 'read_count'])
    .where('actor_id', '=', actorId)
    .orderBy('last_read_at', 'desc')
    .orderBy('story_id')
    .execute();
}

/** How many stories the history of `actorId` holds (what clearing it would delete). */
export async function countHistory(db: Queryable<ReadersTables>, actorId: string): Promise<number> {
  const row = await db
    .selectFrom('reading_history')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('actor_id', '=', actorId)
    .executeTakeFirstOrThrow();
  return row.n;
}
