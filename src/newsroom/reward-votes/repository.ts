import type { Insertable } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import type { RewardVotesTable } from '../rows.js';

/** Inserts a reward vote; null when this reader already voted on this story (unique story_id, actor_id). */
export async function insertRewardVote(tx: Tx<NewsroomTables>, row: Insertable<RewardVotesTable>) {
  return (
    (await tx
      .insertInto('reward_votes')
      .values(row)
      .onConflict((oc) => oc.columns(['story_id', 'actor_id']).doNothing())
      .returningAll()
      .executeTakeFirst()) ?? null
  );
}

/** The vote `actorId` cast on `storyId` (unique story_id, actor_id), or undefined. */
export async function findRewardVote(db: Queryable<NewsroomTables>, storyId: string, actorId: string) {
  return db
    .selectFrom('reward_votes')
    .select(['id', 'story_id', 'vote', 'weight', 'created_at', 'changed_at'])
    .where('story_id', '=', storyId)
    .where('actor_id', '=', actorId)
    .executeTakeFirst();
}

/** The vote `actorId` cast on `storyId`, locked for its change; undefined when there is none. */
export async function lockRewardVote(tx: Tx<NewsroomTables>, storyId: string, actorId: string) {
  return tx
    .selectFrom('reward_votes')
    .selectAll()
    .where('story_id', '=', storyId)
    .where('actor_id', '=', actorId)
    .forUpdate()
    .executeTakeFirst();
}

/** The vote's new direction (and weight, with the verified action that raised it), and when it changed. */
export async function updateRewardVote(
  tx: Tx<NewsroomTables>,
  id: string,
  change: { vote: 'UP' | 'DOWN'; weight: number; verified_action_id: string | null; changed_at: Date },
) {
  return tx.updateTable('reward_votes').set(change).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Up to `limit` votes of `actorId`, newest first (index reward_votes_actor). */
export async function rewardVotesByActor(db: Queryable<NewsroomTables>, actorId: string, limit: number) {
  return db
    .selectFrom('reward_votes')
    .select(['id', 'story_id', 'vote', 'weight', 'created_at', 'changed_at'])
    .where('actor_id', '=', actorId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
