import { sql } from 'kysely';
import type { WindowReader } from '../governance/integrity/interactions.js';
import { readThroughCursor } from '../platform/db/bulk/cursor-read.js';
import type { Tx } from '../platform/db/database.js';
import type { NewsroomTables } from './tables.js';

/**
 * The newsroom's side of governance/integrity's IntegrityInteractions port: the reviews, revision votes, reward
 * votes and flags of a window and the stories they name, all newsroom tables. A context-level repository: the
 * composition root wires it, no other context imports it.
 */

/** Rows fetched per round trip while the window streams through a cursor (a batch is turned into acts and dropped). */
const WINDOW_BATCH = 50_000;

/**
 * Every review, revision vote, reward vote and flag made at or after `from`, then the author and room of every
 * story they name, handed to `reader` a batch at a time through server-side cursors: the window is never held
 * as rows. Must be the first statement of its transaction, which it makes a read-only snapshot, so every read
 * sees the same window. `batchSize` rows are fetched at a time.
 */
export async function readInteractionWindow(
  tx: Tx<NewsroomTables>,
  from: Date,
  reader: WindowReader,
  batchSize = WINDOW_BATCH,
): Promise<void> {
  await sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`.execute(tx);
  await readThroughCursor(
    tx,
    'integrity_window',
    tx.selectFrom('agent_reviews').select(['bot_id as botId', 'story_id as storyId', 'kind']).where('created_at', '>=', from),
    batchSize,
    (rows) => reader.addReviews(rows),
  );
  await readThroughCursor(
    tx,
    'integrity_window',
    tx
      .selectFrom('revision_votes as v')
      .innerJoin('revision_proposals as p', 'p.id', 'v.proposal_id')
      .select(['v.bot_id as botId', 'v.proposal_id as proposalId', 'p.bot_id as proposerBotId', 'p.story_id as storyId', 'v.vote as vote'])
      .where('v.created_at', '>=', from),
    batchSize,
    (rows) => reader.addRevisionVotes(rows),
  );
  await readThroughCursor(
    tx,
    'integrity_window',
    tx.selectFrom('reward_votes').select(['actor_id as actorId', 'story_id as storyId', 'vote']).where('created_at', '>=', from),
    batchSize,
    (rows) => reader.addRewardVotes(rows),
  );
  await readThroughCursor(
    tx,
    'integrity_window',
    tx.selectFrom('flags').select(['actor_id as actorId', 'story_id as storyId']).where('created_at', '>=', from),
    batchSize,
    (rows) => reader.addFlags(rows),
  );
  const ids = reader.storyIds();
  for (let i = 0; i < ids.length; i += batchSize) {
    const batch = ids.slice(i, i + batchSize);
    reader.addStories(
      await tx
        .selectFrom('stories')
        .select(['id', 'author_bot_id as authorBotId', 'room'])
        .where(sql<boolean>`id = any(${batch}::text[])`)
        .execute(),
    );
  }
}
