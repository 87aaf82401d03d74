import type { Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import type { TxEvents } from '../../platform/db/transaction.js';
import { recomputeConsensus, type HumanActions } from '../consensus/service.js';
import type { Parameters } from '../../governance/parameters/parameters.js';
import { recordLedgerEvent } from '../ledger/record.js';
import type { LockedStory } from '../stories/story-lock.js';
import { markPublished } from '../stories/story-lock.js';

const HOUR_MS = 3_600_000;

/**
 * Publishes a locked CANDIDATE as PROVISIONAL: opens its reward window, reports it on the ledger and computes
 * its first consensus snapshot. Used by publish compute (scan ALLOW) and by a moderator's RELEASE.
 */
export async function publishStory(
  humanActions: HumanActions,
  tx: Tx<NewsroomTables>,
  events: TxEvents,
  story: LockedStory,
  params: Parameters,
  now: Date,
  reason: string,
): Promise<void> {
  const closes = new Date(now.getTime() + params.rewardWindowHours * HOUR_MS);
  await markPublished(tx, story, now, closes);
  await recordLedgerEvent(tx, events, {
    storyId: story.id,
    type: 'UPDATE',
    title: `Published as provisional: ${story.title}`,
    storyState: 'PROVISIONAL',
    editorialState: 'PUBLISHED',
    promotionState: 'PROVISIONAL',
    bucket: 'provisional',
    reason,
    at: now,
  });
  const published = {
    ...story,
    publication_stage: 'PROVISIONAL' as const,
    moderation_status: 'ALLOWED' as const,
    published_at: now,
    reward_window_ends_at: closes,
  };
  await recomputeConsensus(humanActions, tx, events, published, params, now);
}
