import type { Config } from '../../config.js';
import { appendAudit } from '../../platform/audit/audit-log.js';
import type { HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import type { Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { withTransaction, type Transactor, type TxEvents } from '../../platform/db/transaction.js';
import { AppError, appError, notFound, validationFailed } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recomputeConsensus, type HumanActions } from '../consensus/service.js';
import type { Parameters } from '../../governance/parameters/parameters.js';
import { recordLedgerEvent } from '../ledger/record.js';
import { assertNoLegalHold } from '../moderation/legal-hold-guard.js';
import { requireVerifiedModerator } from '../moderation/policy.js';
import { packetHash } from '../common/packet.js';
import { revisedPacket, staleOpenProposals } from '../reviews/accept-revision.js';
import { canReadStory } from '../stories/policy.js';
import { currentPacket, lockStoryForWrite, type LockedStory } from '../stories/story-lock.js';
import { bucketForState, storyState } from '../stories/story-state.js';
import { insertCurrentVersion, versionWithHash } from '../stories/story-lock.js';
import { enqueueWebhook } from '../../delivery/webhooks/outbox.js';
import { insertCorrection, markRetracted } from './repository.js';
import type { CorrectionBody, CorrectionResponse, RetractionBody } from './schemas.js';

/**
 * Corrections and retractions (content admins who are verified humans). Each writes, in ONE transaction, the
 * story change, its ledger event (CORRECTION / RETRACTION), the webhook event with a delivery per endpoint
 * (story.correction / story.retraction), the correction record and the audit entry; the story lock marks the
 * story changed, so every public read (cached ones included) shows the change once the response is sent.
 */
export function createCorrectionsService(deps: {
  transactor: Transactor<NewsroomTables>;
  clock: Clock;
  config: Config;
  humanActions: HumanActions;
}) {
  const { transactor, clock, config, humanActions } = deps;

  /** Locks a published, publicly readable, unretracted story that no legal hold freezes. */
  async function lockCorrectable(tx: Tx<NewsroomTables>, events: TxEvents, storyId: string): Promise<LockedStory> {
    const story = await lockStoryForWrite(tx, events, storyId);
    if (!story) throw notFound('story');
    if (story.publication_stage === 'CANDIDATE' || !canReadStory(story))
      throw appError('STORY_NOT_PUBLISHED', { message: 'Only a published story that the public can read is corrected or retracted' });
    if (story.review_status === 'RETRACTED') throw appError('STORY_RETRACTED');
    await assertNoLegalHold(tx, story.id);
    return story;
  }

  const storyUrl = (id: string) => `${config.publicBaseUrl}/v1/stories/${encodeURIComponent(id)}`;

  return {
    /** A new version of the story with the admin's changes and a correction note; CORRECTION on the ledger. */
    async correct(actor: HumanActor, storyId: string, body: CorrectionBody, params: Parameters): Promise<CorrectionResponse> {
      const who = requireVerifiedModerator(actor);
      return withTransaction(transactor, async (tx, events) => {
        const story = await lockCorrectable(tx, events, storyId);
        let packet;
        try {
          packet = revisedPacket(await currentPacket(tx, story), body.changes);
        } catch (err) {
          if (err instanceof AppError && err.details)
            throw validationFailed(err.details.map((d) => ({ ...d, path: `/changes${d.path ?? ''}` })));
          throw err;
        }
        const hash = packetHash(packet);
        if (hash === story.current_packet_hash)
          throw validationFailed([{ path: '/changes', message: 'changes nothing in the current packet' }]);
        const earlier = await versionWithHash(tx, story.id, hash);
        if (earlier)
          throw appError('REVISION_RECREATES_VERSION', {
            message: `These changes recreate version ${earlier.version}; a packet can be a version only once`,
          });
        const at = new Date(clock.now());
        const version = story.current_version + 1;
        const id = newId('cor');
        await insertCurrentVersion(tx, story, { version, hash, packet, proposalId: null, createdBy: who.by, at });
        await staleOpenProposals(tx, story, at);
        const state = storyState(story.publication_stage, story.review_status) ?? 'PROVISIONAL';
        const ledgerEventId = await recordLedgerEvent(tx, events, {
          storyId: story.id,
          type: 'CORRECTION',
          title: `Correction: ${packet.title}`,
          storyState: state,
          editorialState: 'CORRECTED',
          promotionState: story.publication_stage,
          bucket: bucketForState(state),
          reason: body.note,
          at,
        });
        const webhook = await enqueueWebhook(tx, {
          type: 'story.correction',
          data: {
            storyId: story.id,
            ledgerEventId,
            title: packet.title,
            reason: body.note,
            version,
            packetHash: hash,
            url: storyUrl(story.id),
          },
          endpoints: config.webhooks.endpoints,
          at,
        });
        await insertCorrection(tx, {
          id,
          story_id: story.id,
          kind: 'CORRECTION',
          version,
          note: body.note,
          ledger_event_id: ledgerEventId,
          webhook_event_id: webhook.id,
          created_by: who.by,
          created_by_actor_id: who.actorId,
          created_at: at,
        });
        await appendAudit(tx, {
          scope: 'MODERATION',
          action: 'story.corrected',
          actor,
          target: `story:${story.id}`,
          details: { correctionId: id, version, packetHash: hash, note: body.note, ledgerEventId, webhookEventId: webhook.id },
          at,
        });
        await recomputeConsensus(
          humanActions,
          tx,
          events,
          { ...story, title: packet.title, current_version: version, current_packet_hash: hash },
          params,
          at,
        );
        return {
          id,
          storyId: story.id,
          kind: 'CORRECTION' as const,
          version,
          packetHash: hash,
          note: body.note,
          reviewStatus: story.review_status,
          ledgerEventId,
          webhookEventId: webhook.id,
          createdBy: who.by,
          createdAt: at.toISOString(),
        };
      });
    },

    /** Retracts the story (reviewStatus RETRACTED, for good); RETRACTION on the ledger. */
    async retract(actor: HumanActor, storyId: string, body: RetractionBody, params: Parameters): Promise<CorrectionResponse> {
      const who = requireVerifiedModerator(actor);
      return withTransaction(transactor, async (tx, events) => {
        const story = await lockCorrectable(tx, events, storyId);
        const at = new Date(clock.now());
        const id = newId('cor');
        await markRetracted(tx, story.id, at);
        const ledgerEventId = await recordLedgerEvent(tx, events, {
          storyId: story.id,
          type: 'RETRACTION',
          title: `Retracted: ${story.title}`,
          storyState: 'UNDER_REVIEW',
          editorialState: 'RETRACTED',
          promotionState: story.publication_stage,
          bucket: 'under-review',
          reason: body.reason,
          at,
        });
        const webhook = await enqueueWebhook(tx, {
          type: 'story.retraction',
          data: {
            storyId: story.id,
            ledgerEventId,
            title: story.title,
            reason: body.reason,
            version: story.current_version,
            packetHash: story.current_packet_hash,
            url: storyUrl(story.id),
          },
          endpoints: config.webhooks.endpoints,
          at,
        });
        await insertCorrection(tx, {
          id,
          story_id: story.id,
          kind: 'RETRACTION',
          version: story.current_version,
          note: body.reason,
          ledger_event_id: ledgerEventId,
          webhook_event_id: webhook.id,
          created_by: who.by,
          created_by_actor_id: who.actorId,
          created_at: at,
        });
        await appendAudit(tx, {
          scope: 'MODERATION',
          action: 'story.retracted',
          actor,
          target: `story:${story.id}`,
          details: { correctionId: id, reason: body.reason, ledgerEventId, webhookEventId: webhook.id },
          at,
        });
        await recomputeConsensus(humanActions, tx, events, { ...story, review_status: 'RETRACTED' }, params, at);
        return {
          id,
          storyId: story.id,
          kind: 'RETRACTION' as const,
          version: story.current_version,
          packetHash: story.current_packet_hash,
          note: body.reason,
          reviewStatus: 'RETRACTED' as const,
          ledgerEventId,
          webhookEventId: webhook.id,
          createdBy: who.by,
          createdAt: at.toISOString(),
        };
      });
    },
  };
}
