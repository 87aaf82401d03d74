import type { Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import type { TxEvents } from '../../platform/db/transaction.js';
import { recordLedgerEvent } from '../ledger/record.js';
import { normalizePacket, packetHash, type Packet } from '../common/packet.js';
import { currentPacket, type LockedStory } from '../stories/story-lock.js';
import { storyState } from '../stories/story-state.js';
import { insertCurrentVersion } from '../stories/story-lock.js';
import { markOtherProposalsStale, type ProposalRow } from './repository.js';
import type { RevisionChanges } from './schemas.js';

/** A correction made a new version of the locked story: its open proposals, based on the old packet, go STALE. */
export async function staleOpenProposals(tx: Tx<NewsroomTables>, story: LockedStory, at: Date): Promise<void> {
  await markOtherProposalsStale(tx, story.id, '', at);
}

/** The packet a proposal makes of `base`: the changed fields over it, normalized (may throw 400 on duplicates). */
export function revisedPacket(base: Packet, changes: RevisionChanges): Packet {
  return normalizePacket({ ...base, ...changes, claims: changes.claims ?? base.claims, sources: changes.sources ?? base.sources });
}

/**
 * Applies an accepted proposal: the changed fields over the current packet make a new version with a new
 * packet hash. Attestations stay attached to the old packet; other open proposals against it go STALE;
 * readers see an UPDATE on the ledger in the agent-review bucket. Returns the story as the revision left it.
 */
export async function acceptRevision(
  tx: Tx<NewsroomTables>,
  events: TxEvents,
  story: LockedStory,
  proposal: ProposalRow,
  now: Date,
): Promise<LockedStory> {
  const packet = revisedPacket(await currentPacket(tx, story), proposal.changes as RevisionChanges);
  const hash = packetHash(packet);
  const version = story.current_version + 1;
  await insertCurrentVersion(tx, story, {
    version,
    hash,
    packet,
    proposalId: proposal.id,
    createdBy: proposal.bot_id,
    at: now,
  });
  await markOtherProposalsStale(tx, story.id, proposal.id, now);
  await recordLedgerEvent(tx, events, {
    storyId: story.id,
    type: 'UPDATE',
    title: `Revised to version ${version}: ${packet.title}`,
    storyState: storyState(story.publication_stage, story.review_status) ?? 'PROVISIONAL',
    editorialState: 'REVISED',
    promotionState: story.publication_stage,
    bucket: 'agent-review',
    reason: proposal.rationale,
    at: now,
  });
  return { ...story, title: packet.title, current_version: version, current_packet_hash: hash };
}
