import type { Queryable } from '../../platform/db/database.js';
import type { ReadersTables } from '../tables.js';

/** SQL of a reader's notification state (migrations/0010_readers_notifications.sql). */

export async function stateOf(
  db: Queryable<ReadersTables>,
  actorId: string,
): Promise<{ seen_at: Date | null; feed_token: string | null } | null> {
  const row = await db
    .selectFrom('reader_notifications')
    .select(['seen_at', 'feed_token'])
    .where('actor_id', '=', actorId)
    .executeTakeFirst();
  return row ?? null;
}

export async function markSeen(db: Queryable<ReadersTables>, actorId: string, at: Date): Promise<void> {
  await db
    .insertInto('reader_notifications')
    .values({ actor_id: actorId, seen_at: at, feed_token: null, updated_at: at })
    .onConflict((oc) => oc.column('actor_id').doUpdateSet({ seen_at: at, updated_at: at }))
    .execute();
}

/** Sets the reader's feed token (a new one replaces the old). */
export async function setFeedToken(db: Queryable<ReadersTables>, actorId: string, token: string, at: Date): Promise<void> {
  await db
    .insertInto('reader_notifications')
    .values({ actor_id: actorId, seen_at: null, feed_token: token, updated_at: at })
    .onConflict((oc) => oc.column('actor_id').doUpdateSet({ feed_token: token, updated_at: at }))
    .execute();
}

export async function holderOfToken(db: Queryable<ReadersTables>, token: string): Promise<string | null> {
  const row = await db.selectFrom('reader_notifications').select('actor_id').where('feed_token', '=', token).executeTakeFirst();
  return row?.actor_id ?? null;
}
