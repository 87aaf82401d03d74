import { sql, type Insertable } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { reusablePageQuery } from '../../platform/db/reusable-query.js';
import type { FlagsTable } from '../rows.js';

/** SQL of reader flags. */

/** Inserts a flag; null when this reader already flagged this story (or this claim of it). */
export async function insertFlag(tx: Tx<NewsroomTables>, row: Insertable<FlagsTable>) {
  return (
    (await tx
      .insertInto('flags')
      .values(row)
      .onConflict((oc) => oc.expression(sql`story_id, actor_id, coalesce(claim_id, '')`).doNothing())
      .returningAll()
      .executeTakeFirst()) ?? null
  );
}

/**
 * Up to `limit` flags after `afterSeq` in filing order (index flags_story). Each shape (first page, after a cursor)
 * is built once and runs as a named statement (platform/db/reusable-query.ts).
 */
export async function flagsAfter(db: Queryable<NewsroomTables>, storyId: string, afterSeq: string | null, limit: number) {
  return flagsPage(db, afterSeq, storyId, limit);
}

const flagsPage = reusablePageQuery((db: Queryable<NewsroomTables>, afterSeq: string | null, storyId: string, limit: number) => {
  let query = db
    .selectFrom('flags')
    .select(['seq', 'id', 'actor_id', 'verified', 'severity', 'claim_id', 'reason', 'created_at'])
    .where('story_id', '=', storyId)
    .orderBy('seq')
    .limit(limit);
  if (afterSeq !== null) query = query.where('seq', '>', afterSeq);
  return query;
});

/** Flags created in [from, to) (a health signal of governance/parameters, by the HealthCounts port). */
export async function countFlags(db: Queryable<NewsroomTables>, from: Date, to: Date): Promise<number> {
  const row = await db
    .selectFrom('flags')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .executeTakeFirstOrThrow();
  return row.n;
}

const OWN_FLAG_COLUMNS = ['id', 'story_id', 'severity', 'claim_id', 'reason', 'created_at'] as const;

/** The flags `actorId` filed on `storyId` (on the story and on its claims), in filing order. */
export async function flagsOfActorOnStory(db: Queryable<NewsroomTables>, storyId: string, actorId: string) {
  return db
    .selectFrom('flags')
    .select(OWN_FLAG_COLUMNS)
    .where('story_id', '=', storyId)
    .where('actor_id', '=', actorId)
    .orderBy('seq')
    .execute();
}

/** Up to `limit` flags of `actorId`, newest first (index flags_actor). */
export async function flagsByActor(db: Queryable<NewsroomTables>, actorId: string, limit: number) {
  return db.selectFrom('flags').select(OWN_FLAG_COLUMNS).where('actor_id', '=', actorId).orderBy('seq', 'desc').limit(limit).execute();
}

/** The corrections and retractions of `storyIds`, oldest first: what an editor did about a story after a flag. */
export async function editorialActsOn(db: Queryable<NewsroomTables>, storyIds: readonly string[]) {
  if (storyIds.length === 0) return [];
  return db
    .selectFrom('story_corrections')
    .select(['story_id', 'kind', 'note', 'created_at'])
    .where('story_id', 'in', storyIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
