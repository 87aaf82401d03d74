import type { Queryable, Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import type { ModerationStatus } from '../rows.js';
import type { TxEvents } from '../../platform/db/transaction.js';
import { notFound } from '../../platform/errors.js';
import type { Packet } from '../common/packet.js';
import { canReadStory } from './policy.js';
import * as writes from './write-repository.js';
import { lockStoryRow, packetOfVersion, type LockedStory } from './write-repository.js';

export type { LockedStory } from './write-repository.js';

/**
 * Locks a story for a write and marks it changed in the transaction's events, so that after the commit its
 * public reads move on. Every writer of a story comes through here. Null when the story does not exist.
 */
export async function lockStoryForWrite(tx: Tx<NewsroomTables>, events: TxEvents, storyId: string): Promise<LockedStory | null> {
  const story = await lockStoryRow(tx, storyId);
  if (story) events.storyChanged(story.id);
  return story;
}

/** Locks a story the public can see, or throws 404 (hidden stories do not exist for the public). */
export async function lockVisibleStory(tx: Tx<NewsroomTables>, events: TxEvents, storyId: string): Promise<LockedStory> {
  const story = await lockStoryForWrite(tx, events, storyId);
  if (!story || !canReadStory(story)) throw notFound('story');
  return story;
}

/** The packet of a locked story's current version (every write that checks claims or revises reads it). */
export async function currentPacket(tx: Tx<NewsroomTables>, story: LockedStory): Promise<Packet> {
  const packet = await packetOfVersion(tx, story.id, story.current_version);
  // the version row is written in the same transaction as the story's current_version: never missing
  if (!packet) throw new Error(`story ${story.id} has no version ${story.current_version}`);
  return packet;
}

/*
 * The writes the stories module lets other newsroom modules make on a story: each runs in the caller's
 * transaction on a story the caller locked first (above), so that every story writer takes the one lock order
 * and the story's public reads move on after the commit. The rest of write-repository.ts is the stories module's own.
 */

/** The packet a story had under `hash`, if it ever had it (a read: the caller's transaction or the database). */
export async function versionWithHash(
  q: Queryable<NewsroomTables>,
  storyId: string,
  hash: string,
): Promise<{ version: number; packet: Packet } | null> {
  return writes.versionWithHash(q, storyId, hash);
}

/** Records the sources of a new story's first version (the candidate that creates the story inserts its row). */
export async function recordFirstSources(tx: Tx<NewsroomTables>, storyId: string, packet: Packet): Promise<void> {
  await writes.upsertSources(tx, storyId, packet, 1);
}

/** Makes `packet` the locked story's new current version (the version row, the story's text columns, its sources). */
export async function insertCurrentVersion(
  tx: Tx<NewsroomTables>,
  story: LockedStory,
  input: { version: number; hash: string; packet: Packet; proposalId: string | null; createdBy: string; at: Date },
): Promise<void> {
  await writes.insertCurrentVersion(tx, { storyId: story.id, ...input });
}

/** Publishes the locked story as PROVISIONAL (visible, its reward window open until `rewardWindowEndsAt`). */
export async function markPublished(tx: Tx<NewsroomTables>, story: LockedStory, at: Date, rewardWindowEndsAt: Date): Promise<void> {
  await writes.markPublished(tx, story.id, at, rewardWindowEndsAt);
}

/** Sets the locked story's moderation status (a scan's or a moderator's decision). */
export async function setModerationStatus(tx: Tx<NewsroomTables>, story: LockedStory, status: ModerationStatus, at: Date): Promise<void> {
  await writes.setModerationStatus(tx, story.id, status, at);
}

/** Counts one more comment on the locked story. */
export async function incrementCommentCount(tx: Tx<NewsroomTables>, story: LockedStory): Promise<void> {
  await writes.incrementCommentCount(tx, story.id);
}

/** Counts one comment fewer on the locked story (its author deleted it). */
export async function decrementCommentCount(tx: Tx<NewsroomTables>, story: LockedStory): Promise<void> {
  await writes.decrementCommentCount(tx, story.id);
}

/** Writes the columns a consensus recomputation derived for the locked story. */
export async function updateConsensusColumns(
  tx: Tx<NewsroomTables>,
  story: LockedStory,
  columns: writes.StoryConsensusColumns,
  at: Date,
): Promise<void> {
  await writes.updateConsensusColumns(tx, story.id, columns, at);
}
