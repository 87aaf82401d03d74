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

/** Replies by others (not deleted) to `actorId`'s comments since `since`, on stories the public can read. */
function repliesQuery(db: Db<NewsroomTables>, actorId: string, since: Date) {
  return db
    .selectFrom('comments as mine')
    .innerJoin('comments as c', 'c.parent_id', 'mine.id')
    .innerJoin('stories', 'stories.id', 'c.story_id')
    .where('mine.actor_id', '=', actorId)
    .where('c.actor_id', '<>', actorId)
    .where('c.deleted_at', 'is', null)
    .where('c.created_at', '>', since)
    .where((eb) => publiclyVisible(eb));
}

/** Replies by others (not deleted) to `actorId`'s comments since `since`, newest first, on stories the public can read. */
export async function repliesTo(db: Db<NewsroomTables>, actorId: string, since: Date, limit: number): Promise<ReplyRow[]> {
  return repliesQuery(db, actorId, since)
    .select(['c.id', 'c.story_id', 'stories.title', 'c.actor_id', 'mine.id as parent_id', 'c.created_at'])
    .orderBy('c.created_at', 'desc')
    .limit(limit)
    .execute();
}

/** The stories `actorId` commented on, and those they flagged (each at most `limit`). */
function takenPartQueries(db: Db<NewsroomTables>, actorId: string, limit: number) {
  return {
    commented: db.selectFrom('comments').select('story_id').distinct().where('actor_id', '=', actorId).limit(limit),
    flagged: db.selectFrom('flags').select('story_id').distinct().where('actor_id', '=', actorId).limit(limit),
  };
}

/** The stories `actorId` commented on and flagged (each at most `limit`). */
export async function storiesTakenPartIn(db: Db<NewsroomTables>, actorId: string, limit: number) {
  const queries = takenPartQueries(db, actorId, limit);
  const [commented, flagged] = await Promise.all([queries.commented.execute(), queries.flagged.execute()]);
  return { commented: commented.map((r) => r.story_id), flagged: flagged.map((r) => r.story_id) };
}

/**
 * How many replies (see repliesTo) and corrections (see correctionsOf, of the stories in `saved` or taken part in,
 * `stories` of each kind) came after `since`, each counted up to `cap`: the count of what repliesTo and
 * correctionsOf would list, in one statement that reads no row's text.
 */
export async function countSince(
  db: Db<NewsroomTables>,
  q: { actorId: string; saved: readonly string[]; since: Date; stories: number; cap: number },
): Promise<{ replies: number; corrections: number }> {
  const { actorId, saved, since, stories, cap } = q;
  const takenPart = takenPartQueries(db, actorId, stories);
  const replies = repliesQuery(db, actorId, since).select('c.id').limit(cap);
  const corrections = db
    .selectFrom('story_corrections as sc')
    .innerJoin('stories', 'stories.id', 'sc.story_id')
    .select('sc.id')
    .where((eb) =>
      eb.or([
        ...(saved.length ? [eb('sc.story_id', 'in', [...saved])] : []),
        eb('sc.story_id', 'in', takenPart.commented),
        eb('sc.story_id', 'in', takenPart.flagged),
      ]),
    )
    .where('sc.created_at', '>', since)
    .where((eb) => publiclyVisible(eb))
    .limit(cap);
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom(replies.as('r'))
        .select((e) => e.fn.countAll<string>().as('n'))
        .as('replies'),
      eb
        .selectFrom(corrections.as('k'))
        .select((e) => e.fn.countAll<string>().as('n'))
        .as('corrections'),
    ])
    .executeTakeFirstOrThrow();
  return { replies: Number(row.replies ?? 0), corrections: Number(row.corrections ?? 0) };
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
