import type { Clock } from '../../platform/clock.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Packet } from '../candidates/packet.js';
import type { SafetyTrace } from '../candidates/schemas.js';
import { recomputeConsensus } from '../consensus/service.js';
import { lockStory } from '../consensus/story-lock.js';
import { readParameters } from '../governance/parameters.js';
import { recordLedgerEvent } from '../ledger/record.js';
import { scanPacket } from '../moderation/safety-scan.js';

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
    async compute(hash: string): Promise<SafetyTrace> {
      return withTransaction(transactor, async (trx, events) => {
        const candidate = await trx.selectFrom('candidates').select(['story_id']).where('hash', '=', hash).executeTakeFirst();
        if (!candidate) throw notFound('candidate');
        const story = await lockStory(trx, events, candidate.story_id);
        const version = await trx.selectFrom('story_versions').select('packet').where('story_id', '=', candidate.story_id).where('packet_hash', '=', hash).executeTakeFirst();
        if (!story || !version) throw notFound('candidate');
        const now = new Date(clock.now());
        const scan = scanPacket(version.packet as Packet);
        await trx
          .insertInto('safety_traces')
          .values({ id: newId('scan'), story_id: story.id, packet_hash: hash, decision: scan.decision, categories: JSON.stringify(scan.categories), rules: JSON.stringify(scan.rules), scanned_at: now })
          .execute();

        if (story.publication_stage === 'CANDIDATE' && story.moderation_status === 'PENDING_SCAN') {
          if (scan.decision === 'ALLOW') {
            const params = await readParameters(trx);
            const closes = new Date(now.getTime() + params.rewardWindowHours * HOUR_MS);
            await trx
              .updateTable('stories')
              .set({ publication_stage: 'PROVISIONAL', moderation_status: 'ALLOWED', published_at: now, reward_window_ends_at: closes, updated_at: now })
              .where('id', '=', story.id)
              .execute();
            Object.assign(story, { publication_stage: 'PROVISIONAL', moderation_status: 'ALLOWED', published_at: now, reward_window_ends_at: closes });
            await recordLedgerEvent(trx, events, {
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
            await recomputeConsensus(trx, events, story, now);
          } else {
            await trx
              .updateTable('stories')
              .set({ moderation_status: scan.decision === 'BLOCK' ? 'BLOCKED' : 'QUARANTINED', updated_at: now })
              .where('id', '=', story.id)
              .execute();
          }
        }
        return { hash, storyId: story.id, decision: scan.decision, categories: scan.categories, rules: scan.rules, scannedAt: now.toISOString() };
      });
    },
  };
}
