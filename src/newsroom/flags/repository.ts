import { sql, type Insertable } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import { reusablePageQuery } from '../../platform/db/reusable-query.js';
import type { FlagsTable } from '../../platform/db/schema.js';

/** SQL of reader flags. */

/** Inserts a flag; null when this reader already flagged this story (or this claim of it). */
export async function insertFlag(tx: Tx, row: Insertable<FlagsTable>) {
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
export async function flagsAfter(db: Queryable, storyId: string, afterSeq: string | null, limit: number) {
  return flagsPage(db, afterSeq, storyId, limit);
}

const flagsPage = reusablePageQuery((db: Queryable, afterSeq: string | null, storyId: string, limit: number) => {
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
export async function countFlags(db: Queryable, from: Date, to: Date): Promise<number> {
  const row = await db
    .selectFrom('flags')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .executeTakeFirstOrThrow();
  return row.n;
}
