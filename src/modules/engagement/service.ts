import { sql } from 'kysely';
import type { HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { conflict, notFound, validationFailed } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recomputeConsensus } from '../consensus/service.js';
import { currentPacket, lockVisibleStory, type LockedStory } from '../consensus/story-lock.js';
import { consumeHumanAction } from '../identity/human-actions.js';
import type { CommentBody, FlagBody, RewardVoteBody } from './schemas.js';

/** Weight of a human reward vote by the tier the service recorded: L3 (World ID) 3, L2 2, else 1. */
export const REWARD_VOTE_WEIGHT = { L3: 3, L2: 2, L0: 1 } as const;

function requirePublished(story: LockedStory) {
  if (story.publication_stage === 'CANDIDATE') throw notFound('story');
}

/**
 * Human reactions to published stories (signed writes from the front end). Each write locks the story
 * row and recomputes the consensus in the same transaction.
 */
export function createEngagementService(deps: { transactor: Transactor; clock: Clock }) {
  const { transactor, clock } = deps;

  return {
    async comment(actor: HumanActor, storyId: string, body: CommentBody) {
      return withTransaction(transactor, async (trx, events) => {
        const story = await lockVisibleStory(trx, events, storyId);
        requirePublished(story);
        if (body.parentId) {
          const parent = await trx.selectFrom('comments').select('id').where('id', '=', body.parentId).where('story_id', '=', story.id).executeTakeFirst();
          if (!parent) throw validationFailed([{ path: '/parentId', message: 'no such comment on this story' }]);
        }
        const now = new Date(clock.now());
        const row = await trx
          .insertInto('comments')
          .values({ id: newId('cm'), story_id: story.id, actor_id: actor.actorId, verified: actor.verified, linked_human_id: actor.linkedHumanId ?? null, parent_id: body.parentId ?? null, body: body.body, created_at: now })
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx.updateTable('stories').set({ comment_count: sql`comment_count + 1` }).where('id', '=', story.id).execute();
        story.comment_count += 1;
        await recomputeConsensus(trx, events, story, now);
        return { id: row.id, storyId: row.story_id, actorId: row.actor_id, verified: row.verified, parentId: row.parent_id, body: row.body, createdAt: row.created_at.toISOString() };
      });
    },

    /**
     * A flag. A HIGH flag must name a claim of the current packet and is accepted only with a verified
     * human action `flag_high_severity:<claimId>` proven by this reader (consumed here, once): it puts the
     * story UNDER_REVIEW and shows a CHALLENGE on the ledger.
     */
    async flag(actor: HumanActor, storyId: string, body: FlagBody) {
      return withTransaction(transactor, async (trx, events) => {
        const story = await lockVisibleStory(trx, events, storyId);
        requirePublished(story);
        if (body.claimId) {
          const { claims } = await currentPacket(trx, story);
          if (!claims.some((c) => c.id === body.claimId)) throw validationFailed([{ path: '/claimId', message: 'no such claim in the current packet' }]);
        }
        const now = new Date(clock.now());
        let verifiedActionId: string | null = null;
        if (body.severity === 'HIGH') {
          if (!body.claimId) throw validationFailed([{ path: '/claimId', message: 'a HIGH flag must name the claim it challenges' }]);
          const action = `flag_high_severity:${body.claimId}`;
          verifiedActionId = actor.linkedHumanId ? await consumeHumanAction(trx, action, `flag:${story.id}`, now, actor.linkedHumanId) : null;
          if (!verifiedActionId) {
            throw conflict('HUMAN_VERIFICATION_REQUIRED', 'A HIGH flag needs a verified human action for this claim', {
              nextAction: `POST /v1/worldid/verify with action ${action}, then flag again with your linkedHumanId`,
            });
          }
        }
        const row = await trx
          .insertInto('flags')
          .values({
            id: newId('fl'),
            story_id: story.id,
            actor_id: actor.actorId,
            verified: actor.verified,
            linked_human_id: actor.linkedHumanId ?? null,
            severity: body.severity,
            claim_id: body.claimId ?? null,
            reason: body.reason,
            verified_action_id: verifiedActionId,
            created_at: now,
          })
          .onConflict((oc) => oc.expression(sql`story_id, actor_id, coalesce(claim_id, '')`).doNothing())
          .returningAll()
          .executeTakeFirst();
        if (!row) throw conflict('FLAG_ALREADY_RECORDED', 'This reader already flagged this story (or this claim)');
        const challenge = body.severity === 'HIGH';
        const snapshot = await recomputeConsensus(trx, events, story, now, challenge && story.review_status !== 'RETRACTED' ? 'UNDER_REVIEW' : undefined);
        return {
          id: row.id,
          storyId: row.story_id,
          actorId: row.actor_id,
          severity: row.severity,
          claimId: row.claim_id,
          reason: row.reason,
          challenge,
          verifiedActionId,
          reviewStatus: snapshot.reviewStatus,
          createdAt: row.created_at.toISOString(),
        };
      });
    },

    /** One reward vote per reader per story, only while the story's reward window is open. */
    async rewardVote(actor: HumanActor, storyId: string, body: RewardVoteBody) {
      return withTransaction(transactor, async (trx, events) => {
        const story = await lockVisibleStory(trx, events, storyId);
        requirePublished(story);
        const now = new Date(clock.now());
        if (!story.published_at || !story.reward_window_ends_at || now < story.published_at || now >= story.reward_window_ends_at) {
          throw conflict('REWARD_WINDOW_CLOSED', 'The reward window of this story is closed');
        }
        const weight = REWARD_VOTE_WEIGHT[actor.tier];
        const row = await trx
          .insertInto('reward_votes')
          .values({ id: newId('rv'), story_id: story.id, actor_id: actor.actorId, verified: actor.verified, linked_human_id: actor.linkedHumanId ?? null, vote: body.vote, weight, created_at: now })
          .onConflict((oc) => oc.columns(['story_id', 'actor_id']).doNothing())
          .returningAll()
          .executeTakeFirst();
        if (!row) throw conflict('REWARD_VOTE_ALREADY_CAST', 'This reader already cast a reward vote on this story');
        await recomputeConsensus(trx, events, story, now);
        return {
          id: row.id,
          storyId: row.story_id,
          actorId: row.actor_id,
          vote: row.vote,
          weight: row.weight,
          tier: actor.tier,
          rewardWindowClosesAt: story.reward_window_ends_at.toISOString(),
          createdAt: row.created_at.toISOString(),
        };
      });
    },
  };
}
