import { authorColumns, type HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import { withTransaction, type Transactor, type TxEvents } from '../../platform/db/transaction.js';
import type { NewsroomTables } from '../tables.js';
import { appError, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recomputeConsensus, type HumanActions } from '../consensus/service.js';
import type { Parameters } from '../../governance/parameters/parameters.js';
import { requirePublished } from '../stories/policy.js';
import { lockVisibleStory } from '../stories/story-lock.js';
import { isRewardWindowActive } from '../stories/story-state.js';
import type { Db, Tx } from '../../platform/db/database.js';
import { newestOnReadable } from '../stories/readable-titles.js';
import type { StoriesService } from '../stories/service.js';
import { findRewardVote, insertRewardVote, lockRewardVote, rewardVotesByActor, updateRewardVote } from './repository.js';

/** A reader's own vote as their pages show it. */
export interface OwnRewardVote {
  id: string;
  storyId: string;
  vote: 'UP' | 'DOWN';
  weight: number;
  createdAt: string;
  /** When the reader last changed it; absent while it stands as cast. */
  changedAt?: string;
}

/** A vote as the cast and the change answer it: the vote, the voter's tier and the window it counts in. */
const presentCast = (
  row: {
    id: string;
    story_id: string;
    actor_id: string;
    vote: 'UP' | 'DOWN';
    weight: number;
    verified_action_id: string | null;
    created_at: Date;
  },
  actor: HumanActor,
  closesAt: Date,
) => ({
  id: row.id,
  storyId: row.story_id,
  actorId: row.actor_id,
  vote: row.vote,
  weight: row.weight,
  tier: actor.tier,
  verifiedActionId: row.verified_action_id,
  rewardWindowClosesAt: closesAt.toISOString(),
  createdAt: row.created_at.toISOString(),
});

const presentOwn = (row: {
  id: string;
  story_id: string;
  vote: 'UP' | 'DOWN';
  weight: number;
  created_at: Date;
  changed_at: Date | null;
}): OwnRewardVote => ({
  id: row.id,
  storyId: row.story_id,
  vote: row.vote,
  weight: row.weight,
  createdAt: row.created_at.toISOString(),
  ...(row.changed_at ? { changedAt: row.changed_at.toISOString() } : {}),
});

/**
 * Weight of a human reward vote by the tier the service recorded: L3 (World ID) 3, L2 2, else 1. A vote
 * carries its voter's tier weight only with a verified human action `reward:<storyId>` of the voter's own
 * linked human, consumed by that vote: one person weighs in once per story however many actorIds they use.
 */
const REWARD_VOTE_WEIGHT = { L3: 3, L2: 2, L0: 1 } as const;

/**
 * What a reward vote needs of rewards: one of the voter's daily paid actions spent in the vote's transaction (its
 * limits are the rewards configuration's). Declared here, wired in composition.ts to rewards/recipients/budget.ts.
 */
export interface PaidActions {
  spend(tx: Tx<NewsroomTables>, actor: HumanActor, at: Date): Promise<void>;
}

/** Reader reward votes: one per reader per story, only while the story's reward window is open. */
export function createRewardVotesService(deps: {
  db: Db<NewsroomTables>;
  transactor: Transactor<NewsroomTables>;
  clock: Clock;
  stories: Pick<StoriesService, 'readable'>;
  humanActions: HumanActions;
  paidActions: PaidActions;
}) {
  const { db, transactor, clock, stories, humanActions, paidActions } = deps;

  /** Locks a published story whose reward window is open at `now` (409 REWARD_WINDOW_CLOSED otherwise). */
  async function lockOpenWindow(tx: Tx<NewsroomTables>, events: TxEvents, storyId: string, now: Date) {
    const story = requirePublished(await lockVisibleStory(tx, events, storyId));
    const closesAt = story.reward_window_ends_at;
    if (!closesAt || !isRewardWindowActive(story.published_at, closesAt, now)) throw appError('REWARD_WINDOW_CLOSED');
    return { story, closesAt };
  }

  /**
   * The verified action `reward:<storyId>` of the actor's own linked human, consumed by vote `voteId`, and the
   * weight it gives (the actor's tier); without one, weight 1 and null.
   */
  async function proofWeight(tx: Tx<NewsroomTables>, actor: HumanActor, storyId: string, voteId: string, now: Date) {
    const verifiedActionId =
      actor.linkedHumanId && actor.tier !== 'L0'
        ? await humanActions.consume(tx, `reward:${storyId}`, `reward_vote:${voteId}`, now, actor.linkedHumanId)
        : null;
    return { verifiedActionId, weight: verifiedActionId ? REWARD_VOTE_WEIGHT[actor.tier] : REWARD_VOTE_WEIGHT.L0 };
  }

  return {
    async cast(actor: HumanActor, storyId: string, body: { vote: 'UP' | 'DOWN' }, params: Parameters) {
      return withTransaction(transactor, async (tx, events) => {
        const now = new Date(clock.now());
        const { story, closesAt } = await lockOpenWindow(tx, events, storyId, now);
        // a reward vote is a paid action: it spends one of the voter's daily budget
        await paidActions.spend(tx, actor, now);
        const id = newId('rv');
        const { verifiedActionId, weight } = await proofWeight(tx, actor, story.id, id, now);
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
        await recomputeConsensus(humanActions, tx, events, story, params, now);
        return presentCast(row, actor, closesAt);
      });
    },

    /**
     * The reader changes the vote they cast, while the story's reward window is open (409 REWARD_WINDOW_CLOSED
     * after; 404 when they have no vote to change): the direction is replaced, and the weight rises to the
     * reader's tier weight when this change consumes a verified action reward:<storyId> of their own linked human
     * (the same proof rule as the cast; a weight never falls). Still one vote per reader per story: the row is
     * changed in place and the consensus recomputed from the votes as they now stand. A change is not a new paid
     * action.
     */
    async change(actor: HumanActor, storyId: string, body: { vote: 'UP' | 'DOWN' }, params: Parameters) {
      return withTransaction(transactor, async (tx, events) => {
        const now = new Date(clock.now());
        const { story, closesAt } = await lockOpenWindow(tx, events, storyId, now);
        const current = await lockRewardVote(tx, story.id, actor.actorId);
        if (!current) throw notFound('reward vote');
        // a proof is consumed only when it can raise the weight: a vote already at the tier's weight keeps its own
        const canRise = current.weight < REWARD_VOTE_WEIGHT[actor.tier];
        const proof = canRise ? await proofWeight(tx, actor, story.id, current.id, now) : null;
        const raised = proof?.verifiedActionId ? proof : null;
        const row = await updateRewardVote(tx, current.id, {
          vote: body.vote,
          weight: raised ? Math.max(raised.weight, current.weight) : current.weight,
          verified_action_id: raised ? raised.verifiedActionId : current.verified_action_id,
          changed_at: now,
        });
        await recomputeConsensus(humanActions, tx, events, story, params, now);
        return { ...presentCast(row, actor, closesAt), changedAt: now.toISOString() };
      });
    },

    /** The vote `actor` cast on `storyId`, or null: the story page shows it instead of the vote form. */
    async mine(actor: HumanActor, storyId: string): Promise<OwnRewardVote | null> {
      const row = await findRewardVote(db, storyId, actor.actorId);
      return row ? presentOwn(row) : null;
    },

    /** The actor's newest votes (up to `limit`) on stories the public can read, each with its story's title. */
    async byActor(actorId: string, limit: number) {
      const kept = await newestOnReadable(stories, (n) => rewardVotesByActor(db, actorId, n), limit);
      return kept.map(({ row, story }) => ({ ...presentOwn(row), story }));
    },
  };
}
