import type { Queryable } from '../platform/db/database.js';
import type { NewsroomTables } from './tables.js';

/** What a reader's data export (readers' `ExportSources`) shows of the newsroom: their comments, flags and reward votes. */

export async function exportComments(db: Queryable<NewsroomTables>, actorId: string) {
  return db
    .selectFrom('comments')
    .select(['id', 'story_id', 'parent_id', 'body', 'verified', 'linked_human_id', 'created_at', 'edited_at', 'deleted_at'])
    .where('actor_id', '=', actorId)
    .orderBy('seq')
    .execute();
}

export async function exportFlags(db: Queryable<NewsroomTables>, actorId: string) {
  return db
    .selectFrom('flags')
    .select(['id', 'story_id', 'severity', 'claim_id', 'reason', 'verified', 'linked_human_id', 'created_at'])
    .where('actor_id', '=', actorId)
    .orderBy('seq')
    .execute();
}

export async function exportRewardVotes(db: Queryable<NewsroomTables>, actorId: string) {
  return db
    .selectFrom('reward_votes')
    .select(['id', 'story_id', 'vote', 'weight', 'verified', 'linked_human_id', 'created_at', 'changed_at'])
    .where('actor_id', '=', actorId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
