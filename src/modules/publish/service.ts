import type { Clock } from '../../platform/clock.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { SafetyTrace } from '../candidates/schemas.js';
import { recomputeConsensus } from '../consensus/service.js';
import type { Parameters } from '../governance/parameters.js';
import { recordLedgerEvent } from '../ledger/record.js';
import { scanPacket } from '../moderation/safety-scan.js';
import { lockStoryForWrite } from '../stories/story-lock.js';
import { markPublished, setModerationStatus, versionWithHash } from '../stories/write-repository.js';
import { candidateStoryId, insertSafetyTrace } from './repository.js';

const HOUR_MS = 3_600_000;

/**
 * Publish compute (operations token): scans the candidate packet and applies the decision in one
 * transaction. ALLOW publishes a CANDIDATE as PROVISIONAL and opens its reward window; QUARANTINE holds it
 * for a content admin; BLOCK never publishes. Running it again re-scans and records a new trace without
 * changing a story that has already left the CANDIDATE stage.
 */
export function createPublishService(deps: { transactor: Transactor; clock: Clock }) {
  const { transactor, clock } = deps;
  return {
    async compute(hash: string, params: Parameters): Promise<SafetyTrace> {
      return withTransaction(transactor, async (tx, events) => {
        const storyId = await candidateStoryId(tx, hash);
        const story = storyId ? await lockStoryForWrite(tx, events, storyId) : null;
        const version = story ? await versionWithHash(tx, story.id, hash) : null;
        if (!story || !version) throw notFound('candidate');
        const now = new Date(clock.now());
        const scan = scanPacket(version.packet);
        await insertSafetyTrace(tx, {
          id: newId('scan'),
          story_id: story.id,
          packet_hash: hash,
          decision: scan.decision,
          categories: JSON.stringify(scan.categories),
          rules: JSON.stringify(scan.rules),
          scanned_at: now,
        });

        if (story.publication_stage === 'CANDIDATE' && story.moderation_status === 'PENDING_SCAN') {
          if (scan.decision === 'ALLOW') {
            const closes = new Date(now.getTime() + params.rewardWindowHours * HOUR_MS);
            await markPublished(tx, story.id, now, closes);
            await recordLedgerEvent(tx, events, {
              storyId: story.id,
              type: 'UPDATE',
              title: `Published as provisional: ${story.title}`,
              storyState: 'PROVISIONAL',
              editorialState: 'PUBLISHED',
              promotionState: 'PROVISIONAL',
              bucket: 'provisional',
              reason: 'safety scan ALLOW',
              at: now,
            });
            const published = {
              ...story,
              publication_stage: 'PROVISIONAL' as const,
              moderation_status: 'ALLOWED' as const,
              published_at: now,
              reward_window_ends_at: closes,
            };
            await recomputeConsensus(tx, events, published, params, now);
          } else {
            await setModerationStatus(tx, story.id, scan.decision === 'BLOCK' ? 'BLOCKED' : 'QUARANTINED', now);
          }
        }
        return {
          hash,
          storyId: story.id,
          decision: scan.decision,
          categories: scan.categories,
          rules: scan.rules,
          scannedAt: now.toISOString(),
        };
      });
    },
  };
}
