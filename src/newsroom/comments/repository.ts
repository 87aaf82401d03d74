import type { Insertable } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { reusablePageQuery } from '../../platform/db/reusable-query.js';
import type { CommentsTable } from '../rows.js';

/** SQL of reader comments. */

export async function insertComment(tx: Tx<NewsroomTables>, row: Insertable<CommentsTable>) {
  return tx.insertInto('comments').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function commentExists(db: Queryable<NewsroomTables>, storyId: string, commentId: string): Promise<boolean> {
  return Boolean(
    await db.selectFrom('comments').select('id').where('id', '=', commentId).where('story_id', '=', storyId).executeTakeFirst(),
  );
}

/** A comment of `storyId`, locked for its author's edit or deletion; undefined when the story has no such comment. */
export async function lockComment(tx: Tx<NewsroomTables>, storyId: string, commentId: string) {
  return tx.selectFrom('comments').selectAll().where('id', '=', commentId).where('story_id', '=', storyId).forUpdate().executeTakeFirst();
}

/** The author's new text, and when. */
export async function updateCommentBody(tx: Tx<NewsroomTables>, commentId: string, body: string, at: Date) {
  return tx.updateTable('comments').set({ body, edited_at: at }).where('id', '=', commentId).returningAll().executeTakeFirstOrThrow();
}

/** Deletes a comment's text: the row stays (replies keep their parent), its body is emptied. */
export async function markCommentDeleted(tx: Tx<NewsroomTables>, commentId: string, at: Date) {
  return tx.updateTable('comments').set({ body: '', deleted_at: at }).where('id', '=', commentId).returningAll().executeTakeFirstOrThrow();
}

/**
 * Up to `limit` comments after `afterSeq` in posting order (index comments_story). Each shape (first page, after a
 * cursor) is built once and runs as a named statement (platform/db/reusable-query.ts).
 */
export async function commentsAfter(db: Queryable<NewsroomTables>, storyId: string, afterSeq: string | null, limit: number) {
  return commentsPage(db, afterSeq, storyId, limit);
}

const commentsPage = reusablePageQuery((db: Queryable<NewsroomTables>, afterSeq: string | null, storyId: string, limit: number) => {
  let query = db
    .selectFrom('comments')
    .select(['seq', 'id', 'actor_id', 'verified', 'parent_id', 'body', 'created_at', 'edited_at', 'deleted_at'])
    .where('story_id', '=', storyId)
    .orderBy('seq')
    .limit(limit);
  if (afterSeq !== null) query = query.where('seq', '>', afterSeq);
  return query;
});

/** Up to `limit` comments of one author that are not deleted, newest first (index comments_actor). */
export async function commentsByAuthor(db: Queryable<NewsroomTables>, actorId: string, limit: number) {
  return db
    .selectFrom('comments')
    .select(['seq', 'id', 'story_id', 'actor_id', 'verified', 'parent_id', 'body', 'created_at', 'edited_at', 'deleted_at'])
    .where('actor_id', '=', actorId)
    .where('deleted_at', 'is', null)
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
}
