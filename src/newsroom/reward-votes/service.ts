import { authorColumns, type HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { appError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recomputeConsensus } from '../consensus/service.js';
import type { Parameters } from '../../governance/parameters/parameters.js';
import { consumeHumanAction } from '../../identity/humans/human-actions.js';
import { requirePublished } from '../stories/policy.js';
import { lockVisibleStory } from '../stories/story-lock.js';
import { isRewardWindowActive } from '../stories/story-state.js';
import { spendPaidAction, type PaidActionLimits } from '../../rewards/recipients/budget.js';
import type { Db } from '../../platform/db/database.js';
import { readableTitles } from '../stories/readable-titles.js';
import type { StoriesService } from '../stories/service.js';
import { findRewardVote, insertRewardVote, rewardVotesByActor } from './repository.js';

/** A reader's own vote as their pages show it. */
export interface OwnRewardVote {
  id: string;
  storyId: string;
  vote: 'UP' | 'DOWN';
  weight: number;
  createdAt: string;
}

const presentOwn = (row: { id: string; story_id: string; vote: 'UP' | 'DOWN'; weight: number; created_at: Date }): OwnRewardVote => ({
  id: row.id,
  storyId: row.story_id,
  vote: row.vote,
  weight: row.weight,
  createdAt: row.created_at.toISOString(),
});

/**
 * Weight of a human reward vote by the tier the service recorded: L3 (World ID) 3, L2 2, else 1. A vote
 * carries its voter's tier weight only with a verified human action `reward:<storyId>` of the voter's own
 * linked human, consumed by that vote: one person weighs in once per story however many actorIds they use.
 */
const REWARD_VOTE_WEIGHT = { L3: 3, L2: 2, L0: 1 } as const;

/** Reader reward votes: one per reader per story, only while the story's reward window is open. */
export function createRewardVotesService(deps: {
  db: Db;
  transactor: Transactor;
  clock: Clock;
  paidActions: PaidActionLimits;
  stories: Pick<StoriesService, 'readable'>;
}) {
  const { db, transactor, clock, paidActions, stories } = deps;

  return {
    async cast(actor: HumanActor, storyId: string, body: { vote: 'UP' | 'DOWN' }, params: Parameters) {
      return withTransaction(transactor, async (tx, events) => {
        const story = requirePublished(await lockVisibleStory(tx, events, storyId));
        const now = new Date(clock.now());
        const closesAt = story.reward_window_ends_at;
        if (!closesAt || !isRewardWindowActive(story.published_at, closesAt, now)) throw appError('REWARD_WINDOW_CLOSED');
        // a reward vote is a paid action: it spends one of the voter's daily budget (docs/rewards.md)
        await spendPaidAction(tx, actor, paidActions, now);
        const id = newId('rv');
        const verifiedActionId =
          actor.linkedHumanId && actor.tier !== 'L0'
            ? await consumeHumanAction(tx, `reward:${story.id}`, `reward_vote:${id}`, now, actor.linkedHumanId)
            : null;
        const weight = verifiedActionId ? REWARD_VOTE_WEIGHT[actor.tier] : REWARD_VOTE_WEIGHT.L0;
        const row = await insertRewardVote(tx, {
          id,
          story_id: story.id,
          ...authorColumns(actor),
          vote: body.vote,
          weight,
          verified_action_id: verifiedActionId,
          created_at: now,
        });
        if (!row) throw appError('REWARD_VOTE_ALREADY_CAST');
        await recomputeConsensus(tx, events, story, params, now);
        return {
          id: row.id,
          storyId: row.story_id,
          actorId: row.actor_id,
          vote: row.vote,
          weight: row.weight,
          tier: actor.tier,
          verifiedActionId,
          rewardWindowClosesAt: closesAt.toISOString(),
          createdAt: row.created_at.toISOString(),
        };
      });
    },

    /** The vote `actor` cast on `storyId`, or null: the story page shows it instead of the vote form. */
    async mine(actor: HumanActor, storyId: string): Promise<OwnRewardVote | null> {
      const row = await findRewardVote(db, storyId, actor.actorId);
      return row ? presentOwn(row) : null;
    },

    /** The actor's newest votes (up to `limit`) on stories the public can read, each with its story's title. */
    async byActor(actorId: string, limit: number) {
      const rows = await rewardVotesByActor(db, actorId, limit * 2);
      const visible = await readableTitles(
        stories,
        rows.map((r) => r.story_id),
      );
      return rows
        .filter((r) => visible.has(r.story_id))
        .slice(0, limit)
        .map((r) => ({ ...presentOwn(r), story: visible.get(r.story_id)! }));
    },
  };
}
