import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { publiclyVisible } from '../story-filters-repository.js';

/** SQL of what happened around a reader: replies to their comments, corrections of stories they took part in. */

export interface ReplyRow {
  id: string;
  story_id: string;
  title: string;
  actor_id: string;
  parent_id: string;
  created_at: Date;
}

/** Replies by others (not deleted) to `actorId`'s comments since `since`, newest first, on stories the public can read. */
export async function repliesTo(db: Db<NewsroomTables>, actorId: string, since: Date, limit: number): Promise<ReplyRow[]> {
  return db
    .selectFrom('comments as mine')
    .innerJoin('comments as c', 'c.parent_id', 'mine.id')
    .innerJoin('stories', 'stories.id', 'c.story_id')
    .select(['c.id', 'c.story_id', 'stories.title', 'c.actor_id', 'mine.id as parent_id', 'c.created_at'])
    .where('mine.actor_id', '=', actorId)
    .where('c.actor_id', '<>', actorId)
    .where('c.deleted_at', 'is', null)
    .where('c.created_at', '>', since)
    .where((eb) => publiclyVisible(eb))
    .orderBy('c.created_at', 'desc')
    .limit(limit)
    .execute();
}

/** The stories `actorId` commented on and flagged (each at most `limit`, the newest). */
export async function storiesTakenPartIn(db: Db<NewsroomTables>, actorId: string, limit: number) {
  const [commented, flagged] = await Promise.all([
    db.selectFrom('comments').select('story_id').distinct().where('actor_id', '=', actorId).limit(limit).execute(),
    db.selectFrom('flags').select('story_id').distinct().where('actor_id', '=', actorId).limit(limit).execute(),
  ]);
  return { commented: commented.map((r) => r.story_id), flagged: flagged.map((r) => r.story_id) };
}

export interface CorrectionRow {
  id: string;
  story_id: string;
  title: string;
  kind: 'CORRECTION' | 'RETRACTION';
  note: string;
  created_at: Date;
}

/** Corrections and retractions of these stories since `since`, newest first, on stories the public can read. */
export async function correctionsOf(
  db: Db<NewsroomTables>,
  storyIds: readonly string[],
  since: Date,
  limit: number,
): Promise<CorrectionRow[]> {
  if (storyIds.length === 0) return [];
  return db
    .selectFrom('story_corrections as sc')
    .innerJoin('stories', 'stories.id', 'sc.story_id')
    .select(['sc.id', 'sc.story_id', 'stories.title', 'sc.kind', 'sc.note', 'sc.created_at'])
    .where('sc.story_id', 'in', [...storyIds])
    .where('sc.created_at', '>', since)
    .where((eb) => publiclyVisible(eb))
    .orderBy('sc.created_at', 'desc')
    .limit(limit)
    .execute();
}
