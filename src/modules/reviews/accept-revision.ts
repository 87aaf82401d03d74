import type { Selectable } from 'kysely';
import type { Tx } from '../../platform/db/database.js';
import type { TxEvents } from '../../platform/db/transaction.js';
import type { RevisionProposalsTable } from '../../platform/db/schema.js';
import { claimsText, normalizePacket, packetHash, type Packet } from '../candidates/packet.js';
import { upsertSources } from '../candidates/repository.js';
import { currentPacket, type LockedStory } from '../consensus/story-lock.js';
import { recordLedgerEvent } from '../ledger/record.js';
import { storyState } from '../stories/story-state.js';
import type { RevisionChanges } from './schemas.js';

/** The packet a proposal makes of `base`: the changed fields over it, normalized (may throw 400 on duplicates). */
export function revisedPacket(base: Packet, changes: RevisionChanges): Packet {
  return normalizePacket({ ...base, ...changes, claims: changes.claims ?? base.claims, sources: changes.sources ?? base.sources });
}

/**
 * Applies an accepted proposal: the changed fields over the current packet make a new version with a new
 * packet hash. Attestations stay attached to the old packet; other open proposals against it go STALE;
 * readers see an UPDATE on the ledger in the agent-review bucket.
 */
export async function acceptRevision(db: Tx, events: TxEvents, story: LockedStory, proposal: Selectable<RevisionProposalsTable>, now: Date): Promise<{ version: number; hash: string }> {
  const packet = revisedPacket(await currentPacket(db, story), proposal.changes as RevisionChanges);
  const hash = packetHash(packet);
  const version = story.current_version + 1;
  await db
    .insertInto('story_versions')
    .values({ story_id: story.id, version, packet_hash: hash, packet: JSON.stringify(packet), proposal_id: proposal.id, created_by: proposal.bot_id, created_at: now })
    .execute();
  await db
    .updateTable('stories')
    .set({ title: packet.title, summary: packet.summary, body: packet.body, claims_text: claimsText(packet), current_version: version, current_packet_hash: hash, updated_at: now })
    .where('id', '=', story.id)
    .execute();
  await upsertSources(db, story.id, packet, version);
  await db
    .updateTable('revision_proposals')
    .set({ status: 'STALE', resolved_at: now })
    .where('story_id', '=', story.id)
    .where('status', '=', 'OPEN')
    .where('id', '<>', proposal.id)
    .execute();
  const state = storyState(story.publication_stage, story.review_status) ?? 'PROVISIONAL';
  await recordLedgerEvent(db, events, {
    storyId: story.id,
    type: 'UPDATE',
    title: `Revised to version ${version}: ${packet.title}`,
    storyState: state,
    editorialState: 'REVISED',
    promotionState: story.publication_stage,
    bucket: 'agent-review',
    reason: proposal.rationale,
    at: now,
  });
  Object.assign(story, { title: packet.title, current_version: version, current_packet_hash: hash });
  return { version, hash };
}
