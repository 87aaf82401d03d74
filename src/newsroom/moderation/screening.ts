import type { Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { newId } from '../../platform/ids.js';
import type { Packet } from '../common/packet.js';
import type { LockedStory } from '../stories/story-lock.js';
import { setModerationStatus } from '../stories/story-lock.js';
import { bannedSourceUrls, openQuarantineItem } from './repository.js';
import { scanPacket, type SafetyScanResult } from './safety-scan.js';

/**
 * What moderation offers the publish step, inside its transaction: the safety scan of a candidate's packet
 * (with the sources banned for the story), and the hold of a candidate the scan did not allow.
 */

/** Scans a candidate's packet against the safety rules and the banned sources of its story. */
export async function scanCandidate(tx: Tx<NewsroomTables>, storyId: string, packet: Packet): Promise<SafetyScanResult> {
  return scanPacket(packet, { bannedSourceUrls: await bannedSourceUrls(tx, storyId) });
}

/**
 * Holds back a locked candidate the scan did not allow: hidden from the public (BLOCKED or QUARANTINED) and
 * queued in the quarantine for a content admin's decision.
 */
export async function holdCandidate(
  tx: Tx<NewsroomTables>,
  story: LockedStory,
  decision: 'QUARANTINE' | 'BLOCK',
  traceId: string,
  at: Date,
): Promise<void> {
  await setModerationStatus(tx, story, decision === 'BLOCK' ? 'BLOCKED' : 'QUARANTINED', at);
  await openQuarantineItem(tx, { id: newId('qi'), storyId: story.id, traceId, at });
}
