import type { Queryable, Tx } from '../../platform/db/database.js';
import type { ModerationStatus } from '../../platform/db/schema.js';
import type { Packet } from '../common/packet.js';
import type { LockedStory } from './story-lock.js';
import * as writes from './write-repository.js';

/**
 * The writes the stories module lets other newsroom modules make on a story: each runs in the caller's
 * transaction on a story the caller locked first (story-lock.ts), so that every story writer takes the one
 * lock order and the story's public reads move on after the commit. The rest of write-repository.ts is the
 * stories module's own.
 */

/** The packet a story had under `hash`, if it ever had it (a read: the caller's transaction or the database). */
export async function versionWithHash(q: Queryable, storyId: string, hash: string): Promise<{ version: number; packet: Packet } | null> {
  return writes.versionWithHash(q, storyId, hash);
}

/** Records the sources of a new story's first version (the candidate that creates the story inserts its row). */
export async function recordFirstSources(tx: Tx, storyId: string, packet: Packet): Promise<void> {
  await writes.upsertSources(tx, storyId, packet, 1);
}

/** Makes `packet` the locked story's new current version (the version row, the story's text columns, its sources). */
export async function insertCurrentVersion(
  tx: Tx,
  story: LockedStory,
  input: { version: number; hash: string; packet: Packet; proposalId: string | null; createdBy: string; at: Date },
): Promise<void> {
  await writes.insertCurrentVersion(tx, { storyId: story.id, ...input });
}

/** Publishes the locked story as PROVISIONAL (visible, its reward window open until `rewardWindowEndsAt`). */
export async function markPublished(tx: Tx, story: LockedStory, at: Date, rewardWindowEndsAt: Date): Promise<void> {
  await writes.markPublished(tx, story.id, at, rewardWindowEndsAt);
}

/** Sets the locked story's moderation status (a scan's or a moderator's decision). */
export async function setModerationStatus(tx: Tx, story: LockedStory, status: ModerationStatus, at: Date): Promise<void> {
  await writes.setModerationStatus(tx, story.id, status, at);
}

/** Counts one more comment on the locked story. */
export async function incrementCommentCount(tx: Tx, story: LockedStory): Promise<void> {
  await writes.incrementCommentCount(tx, story.id);
}

/** Writes the columns a consensus recomputation derived for the locked story. */
export async function updateConsensusColumns(tx: Tx, story: LockedStory, columns: writes.StoryConsensusColumns, at: Date): Promise<void> {
  await writes.updateConsensusColumns(tx, story.id, columns, at);
}
