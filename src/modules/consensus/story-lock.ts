import type { Db, Tx } from '../../platform/db/database.js';
import type { TxEvents } from '../../platform/db/transaction.js';
import { notFound } from '../../platform/errors.js';
import type { Packet } from '../candidates/packet.js';
import { isPubliclyVisible } from '../stories/story-state.js';

/**
 * Locks a story row (SELECT … FOR UPDATE) for the rest of the caller's transaction. Every write that
 * changes a story or its consensus takes this lock first, so concurrent writes on one story serialize
 * across every instance while writes on different stories run in parallel.
 */
export async function lockStory(tx: Tx, events: TxEvents, storyId: string) {
  const row = await tx
    .selectFrom('stories')
    .select([
      'id',
      'title',
      'author_bot_id',
      'room',
      'lang',
      'current_version',
      'current_packet_hash',
      'publication_stage',
      'review_status',
      'moderation_status',
      'comment_count',
      'published_at',
      'graduated_at',
      'reward_window_ends_at',
    ])
    .where('id', '=', storyId)
    .forUpdate()
    .executeTakeFirst();
  if (row) events.storyChanged(row.id);
  return row ?? null;
}

export type LockedStory = NonNullable<Awaited<ReturnType<typeof lockStory>>>;

/** Locks a story that the public can see, or throws 404 (hidden stories do not exist for the public). */
export async function lockVisibleStory(tx: Tx, events: TxEvents, storyId: string): Promise<LockedStory> {
  const story = await lockStory(tx, events, storyId);
  if (!story || !isPubliclyVisible(story.moderation_status)) throw notFound('story');
  return story;
}

/** The packet of a locked story's current version (every write that checks claims or revises reads it). */
export async function currentPacket(db: Db, story: LockedStory): Promise<Packet> {
  const row = await db.selectFrom('story_versions').select('packet').where('story_id', '=', story.id).where('version', '=', story.current_version).executeTakeFirstOrThrow();
  return row.packet as Packet;
}
