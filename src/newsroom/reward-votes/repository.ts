import type { Insertable } from 'kysely';
import type { Tx } from '../../platform/db/database.js';
import type { RewardVotesTable } from '../../platform/db/schema.js';

/** Inserts a reward vote; null when this reader already voted on this story (unique story_id, actor_id). */
export async function insertRewardVote(tx: Tx, row: Insertable<RewardVotesTable>) {
  return (
    (await tx
      .insertInto('reward_votes')
      .values(row)
      .onConflict((oc) => oc.columns(['story_id', 'actor_id']).doNothing())
      .returningAll()
      .executeTakeFirst()) ?? null
  );
}
