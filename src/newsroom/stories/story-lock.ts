import type { Tx } from '../../platform/db/database.js';
import type { TxEvents } from '../../platform/db/transaction.js';
import { notFound } from '../../platform/errors.js';
import type { Packet } from '../common/packet.js';
import { canReadStory } from './policy.js';
import { lockStoryRow, packetOfVersion, type LockedStory } from './write-repository.js';

export type { LockedStory } from './write-repository.js';

/**
 * Locks a story for a write and marks it changed in the transaction's events, so that after the commit its
 * public reads move on. Every writer of a story comes through here. Null when the story does not exist.
 */
export async function lockStoryForWrite(tx: Tx, events: TxEvents, storyId: string): Promise<LockedStory | null> {
  const story = await lockStoryRow(tx, storyId);
  if (story) events.storyChanged(story.id);
  return story;
}

/** Locks a story the public can see, or throws 404 (hidden stories do not exist for the public). */
export async function lockVisibleStory(tx: Tx, events: TxEvents, storyId: string): Promise<LockedStory> {
  const story = await lockStoryForWrite(tx, events, storyId);
  if (!story || !canReadStory(story)) throw notFound('story');
  return story;
}

/** The packet of a locked story's current version (every write that checks claims or revises reads it). */
export async function currentPacket(tx: Tx, story: LockedStory): Promise<Packet> {
  const packet = await packetOfVersion(tx, story.id, story.current_version);
  // the version row is written in the same transaction as the story's current_version: never missing
  if (!packet) throw new Error(`story ${story.id} has no version ${story.current_version}`);
  return packet;
}
