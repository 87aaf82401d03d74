import type { Clock } from '../../platform/clock.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import type { NewsroomTables } from '../tables.js';
import { notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { SafetyTrace } from '../candidates/schemas.js';
import type { Parameters } from '../../governance/parameters/parameters.js';
import { holdCandidate, scanCandidate } from '../moderation/screening.js';
import { lockStoryForWrite } from '../stories/story-lock.js';
import { versionWithHash } from '../stories/story-lock.js';
import { publishStory } from './publish-story.js';
import type { HumanActions } from '../consensus/service.js';
import { candidateStoryId, insertSafetyTrace } from './repository.js';

/**
 * Publish compute (operations token): scans the candidate packet and applies the decision in one
 * transaction. ALLOW publishes a CANDIDATE as PROVISIONAL and opens its reward window; QUARANTINE holds it
 * for a content admin; BLOCK never publishes. Both open an item in the moderation quarantine. Running it again re-scans and records a new trace without
 * changing a story that has already left the CANDIDATE stage.
 */
export function createPublishService(deps: { transactor: Transactor<NewsroomTables>; clock: Clock; humanActions: HumanActions }) {
  const { transactor, clock, humanActions } = deps;
  return {
    async compute(hash: string, params: Parameters): Promise<SafetyTrace> {
      return withTransaction(transactor, async (tx, events) => {
        const storyId = await candidateStoryId(tx, hash);
        const story = storyId ? await lockStoryForWrite(tx, events, storyId) : null;
        const version = story ? await versionWithHash(tx, story.id, hash) : null;
        if (!story || !version) throw notFound('candidate');
        const now = new Date(clock.now());
        const scan = await scanCandidate(tx, story.id, version.packet);
        const traceId = newId('scan');
        await insertSafetyTrace(tx, {
          id: traceId,
          story_id: story.id,
          packet_hash: hash,
          decision: scan.decision,
          categories: JSON.stringify(scan.categories),
          rules: JSON.stringify(scan.rules),
          scanned_at: now,
        });

        if (story.publication_stage === 'CANDIDATE' && story.moderation_status === 'PENDING_SCAN') {
          if (scan.decision === 'ALLOW') {
            await publishStory(humanActions, tx, events, story, params, now, 'safety scan ALLOW');
          } else {
            // held back: hidden from the public, and queued for a content admin's decision
            await holdCandidate(tx, story, scan.decision, traceId, now);
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
