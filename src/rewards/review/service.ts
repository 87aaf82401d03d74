import type { Selectable } from 'kysely';
import { identityKey } from '../../platform/auth/admin-policy.js';
import type { HumanActor } from '../../platform/auth/types.js';
import { appendAudit } from '../../platform/audit/audit-log.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, Tx } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import type { ReviewCaseEventsTable, ReviewCasesTable, ReviewTargetType } from '../rows.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { holdSettlementRuns } from '../settlements/service.js';
import { appError, notFound, validationFailed } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { amount } from '../money/money.js';
import { presentPayout } from '../settlements/presenter.js';
import { isClosed, nextCaseStatus, type CaseMove } from './case-states.js';
import {
  caseEvents,
  countOpenCases,
  deleteStoryFreeze,
  findCases,
  freezeRecipientPayouts,
  freezeStoryPayouts,
  frozenRecipients,
  frozenStories,
  heldPayouts,
  insertCase,
  insertCaseEvent,
  insertStoryFreeze,
  lockCase,
  lockRecipient,
  recipientBehind,
  releaseReviewedPayouts,
  reviewUnfrozenPayouts,
  setRecipientFrozen,
  targetExists,
  updateCase,
} from './repository.js';

/** newsroom → rewards' review: whether a story a case or a freeze names exists. */
export interface ReviewStories {
  exists(storyId: string): Promise<boolean>;
}

/** identity → rewards' review: the linked human an actor is bound to (whether or not its session has ended). */
export interface ReviewPeople {
  boundTo(actorId: string): Promise<string | null>;
}

export interface ReviewDeps {
  stories: ReviewStories;
  people: ReviewPeople;
  db: Db<RewardsTables>;
  transactor: Transactor<RewardsTables>;
  clock: Clock;
  decimals: number;
  reviewDueHours: number;
}

function presentCase(row: Selectable<ReviewCasesTable> & { queue?: string }, events?: Selectable<ReviewCaseEventsTable>[]) {
  return {
    id: row.id,
    targetType: row.target_type,
    targetId: row.target_id,
    status: row.status,
    ...(row.queue ? { queue: row.queue } : {}),
    reason: row.reason,
    assignedToActorId: row.assigned_to_actor_id,
    resolution: row.resolution,
    openedBy: row.opened_by,
    createdAt: row.created_at.toISOString(),
    dueAt: row.due_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    closedAt: row.closed_at ? row.closed_at.toISOString() : null,
    ...(events
      ? {
          history: events.map((e) => ({
            action: e.action,
            fromStatus: e.from_status,
            toStatus: e.to_status,
            actor: e.actor,
            note: e.note,
            at: e.created_at.toISOString(),
          })),
        }
      : {}),
  };
}

/**
 * Fraud review: durable review cases moved through an explicit state machine (case-states.ts), each move
 * recorded with who and when (review_case_events and the REWARDS audit chain); freezes of recipients and
 * stories with their effect on payouts; and the review queue of frozen and held items.
 */
/**
 * Audits a freeze or an unfreeze and answers it. `moved` counts the payouts it moved: made FROZEN by a freeze,
 * sent to REVIEW by an unfreeze.
 */
async function recordFreeze(
  tx: Tx<RewardsTables>,
  actor: HumanActor,
  target: { type: 'RECIPIENT' | 'STORY'; id: string },
  frozen: boolean,
  reason: string,
  moved: number,
  now: Date,
) {
  const counted = frozen ? { payoutsFrozen: moved } : { payoutsToReview: moved };
  await appendAudit(tx, {
    scope: 'REWARDS',
    action: `${target.type === 'RECIPIENT' ? 'recipient' : 'story'}.${frozen ? 'frozen' : 'unfrozen'}`,
    actor,
    target: target.id,
    details: { reason, ...counted },
    at: now,
  });
  return {
    targetType: target.type,
    targetId: target.id,
    frozen,
    reason,
    at: now.toISOString(),
    payoutsFrozen: 0,
    payoutsToReview: 0,
    ...counted,
  };
}

export function createRewardReviewService(deps: ReviewDeps) {
  const { db, transactor, clock, stories, people, decimals, reviewDueHours } = deps;

  async function record(
    tx: Tx<RewardsTables>,
    actor: HumanActor,
    caseId: string,
    action: string,
    from: string | null,
    to: string,
    note: string | null,
    at: Date,
  ) {
    await insertCaseEvent(tx, {
      id: newId('rce'),
      case_id: caseId,
      action,
      from_status: from,
      to_status: to,
      actor: identityKey(actor),
      note,
      created_at: at,
    });
    await appendAudit(tx, { scope: 'REWARDS', action: `review_case.${action}`, actor, target: caseId, details: { from, to, note }, at });
  }

  /** Applies `move` to a case under its row lock; an illegal move is 409 and changes nothing. */
  async function move(
    actor: HumanActor,
    caseId: string,
    kind: CaseMove,
    note: string | null,
    set: (now: Date) => Partial<Omit<ReviewCasesTable, 'id' | 'seq'>>,
    after?: (tx: Tx<RewardsTables>, row: Selectable<ReviewCasesTable>, now: Date) => Promise<void>,
  ) {
    return withTransaction(transactor, async (tx) => {
      const row = await lockCase(tx, caseId);
      if (!row) throw notFound('review case');
      const to = nextCaseStatus(row.status, kind);
      if (!to) throw appError('REVIEW_CASE_TRANSITION_INVALID', { message: `A case in ${row.status} cannot be moved by ${kind}` });
      const now = new Date(clock.now());
      const updated = await updateCase(tx, caseId, {
        status: to,
        updated_at: now,
        closed_at: isClosed(to) ? now : null,
        ...set(now),
      });
      await record(tx, actor, caseId, kind, row.status, to, note, now);
      if (after) await after(tx, updated, now);
      return presentCase(updated, await caseEvents(tx, caseId));
    });
  }

  return {
    async open(
      actor: HumanActor,
      body: { targetType: ReviewTargetType; targetId: string; reason: string; assignedToActorId?: string | undefined },
    ) {
      const exists =
        body.targetType === 'STORY' ? await stories.exists(body.targetId) : await targetExists(db, body.targetType, body.targetId);
      if (!exists) {
        throw validationFailed([{ path: '/targetId', message: `no ${body.targetType.toLowerCase()} has this id` }]);
      }
      return withTransaction(transactor, async (tx) => {
        const now = new Date(clock.now());
        const row = await insertCase(tx, {
          id: newId('rc'),
          target_type: body.targetType,
          target_id: body.targetId,
          status: 'OPEN',
          reason: body.reason,
          assigned_to_actor_id: body.assignedToActorId ?? null,
          resolution: null,
          opened_by: identityKey(actor),
          created_at: now,
          due_at: new Date(now.getTime() + reviewDueHours * 3_600_000),
          updated_at: now,
          closed_at: null,
        });
        await record(tx, actor, row.id, 'open', null, 'OPEN', body.reason, now);
        return presentCase(row, await caseEvents(tx, row.id));
      });
    },

    async assign(
      actor: HumanActor,
      caseId: string,
      body: { assigneeActorId?: string | undefined; escalate?: boolean | undefined; note?: string | undefined },
    ) {
      if (!body.escalate && !body.assigneeActorId) {
        throw validationFailed([{ path: '/assigneeActorId', message: 'name the assignee, or escalate: true' }]);
      }
      return move(actor, caseId, body.escalate ? 'escalate' : 'assign', body.note ?? null, () =>
        body.assigneeActorId ? { assigned_to_actor_id: body.assigneeActorId } : {},
      );
    },

    async appeal(actor: HumanActor, caseId: string, body: { note: string }) {
      return move(actor, caseId, 'appeal', body.note, () => ({}));
    },

    async resolve(
      actor: HumanActor,
      caseId: string,
      body: { outcome: 'RESOLVED' | 'DISMISSED'; resolution: string; releasePayouts?: boolean | undefined },
    ) {
      return move(
        actor,
        caseId,
        body.outcome === 'RESOLVED' ? 'resolve' : 'dismiss',
        body.resolution,
        () => ({ resolution: body.resolution }),
        async (tx, row, now) => {
          if (!body.releasePayouts) return;
          const released = await releaseReviewedPayouts(tx, { type: row.target_type, id: row.target_id }, now);
          await appendAudit(tx, { scope: 'REWARDS', action: 'payouts.released', actor, target: row.id, details: { released }, at: now });
        },
      );
    },

    async freezeRecipient(actor: HumanActor, recipientId: string, reason: string) {
      return withTransaction(transactor, async (tx) => {
        await holdSettlementRuns(tx);
        const recipient = await lockRecipient(tx, recipientId);
        if (!recipient) throw notFound('recipient');
        if (recipient.frozen_at) throw appError('ALREADY_FROZEN');
        const now = new Date(clock.now());
        await setRecipientFrozen(tx, recipientId, { at: now, reason, by: identityKey(actor) }, now);
        const payoutsFrozen = await freezeRecipientPayouts(tx, recipient.linked_human_id, now);
        return recordFreeze(tx, actor, { type: 'RECIPIENT', id: recipientId }, true, reason, payoutsFrozen, now);
      });
    },

    async unfreezeRecipient(actor: HumanActor, recipientId: string, reason: string) {
      return withTransaction(transactor, async (tx) => {
        await holdSettlementRuns(tx);
        const recipient = await lockRecipient(tx, recipientId);
        if (!recipient) throw notFound('recipient');
        if (!recipient.frozen_at) throw appError('NOT_FROZEN');
        const now = new Date(clock.now());
        await setRecipientFrozen(tx, recipientId, null, now);
        const payoutsToReview = await reviewUnfrozenPayouts(tx, { linkedHumanId: recipient.linked_human_id }, now);
        return recordFreeze(tx, actor, { type: 'RECIPIENT', id: recipientId }, false, reason, payoutsToReview, now);
      });
    },

    async freezeStory(actor: HumanActor, storyId: string, reason: string) {
      if (!(await stories.exists(storyId))) throw notFound('story');
      return withTransaction(transactor, async (tx) => {
        await holdSettlementRuns(tx);
        const now = new Date(clock.now());
        if (!(await insertStoryFreeze(tx, storyId, reason, identityKey(actor), now))) throw appError('ALREADY_FROZEN');
        const payoutsFrozen = await freezeStoryPayouts(tx, storyId, now);
        return recordFreeze(tx, actor, { type: 'STORY', id: storyId }, true, reason, payoutsFrozen, now);
      });
    },

    async unfreezeStory(actor: HumanActor, storyId: string, reason: string) {
      if (!(await stories.exists(storyId))) throw notFound('story');
      return withTransaction(transactor, async (tx) => {
        await holdSettlementRuns(tx);
        const now = new Date(clock.now());
        if (!(await deleteStoryFreeze(tx, storyId))) throw appError('NOT_FROZEN');
        const payoutsToReview = await reviewUnfrozenPayouts(tx, { storyId }, now);
        return recordFreeze(tx, actor, { type: 'STORY', id: storyId }, false, reason, payoutsToReview, now);
      });
    },

    /**
     * The rewards recipient whose payouts a bot's or a reader's are (a bot's: its payout owner's), and whether it
     * is frozen; null when there is none (then there is nothing of theirs to freeze).
     */
    async recipientOf(member: { kind: 'bot' | 'actor'; id: string }) {
      const row = await recipientBehind(db, member, member.kind === 'actor' ? await people.boundTo(member.id) : null);
      return row ? { recipientId: row.id, linkedHumanId: row.linked_human_id, frozen: row.frozen_at !== null } : null;
    },

    /** How many cases are open (not RESOLVED nor DISMISSED): what the console's home says needs a rewards admin. */
    async openCount(): Promise<number> {
      return countOpenCases(db);
    },

    /** Frozen recipients and stories, payouts held for review, and open cases: oldest first, `limit` in all. */
    async queue(limit: number) {
      const now = new Date(clock.now());
      const [recipients, stories, held, cases] = await Promise.all([
        frozenRecipients(db, limit),
        frozenStories(db, limit),
        heldPayouts(db, limit),
        findCases(db, {}, now, limit, true),
      ]);
      const heldOf = (text: string | null) => {
        const [count, base] = (text ?? '0:0').split(':');
        return { count: Number(count), amount: amount(BigInt(base ?? '0'), decimals) };
      };
      const items = [
        ...recipients.map((r) => ({
          kind: 'FROZEN_RECIPIENT' as const,
          queue: 'FROZEN',
          targetType: 'RECIPIENT',
          targetId: r.id,
          since: r.frozen_at!,
          reason: r.frozen_reason,
          by: r.frozen_by,
          held: heldOf(r.held),
        })),
        ...stories.map((s) => ({
          kind: 'FROZEN_STORY' as const,
          queue: 'FROZEN',
          targetType: 'STORY',
          targetId: s.story_id,
          since: s.frozen_at,
          reason: s.reason,
          by: s.frozen_by,
          held: heldOf(s.held),
        })),
        ...held.map((p) => ({
          kind: 'HELD_PAYOUT' as const,
          queue: 'PENDING',
          targetType: 'PAYOUT',
          targetId: p.id,
          since: p.updated_at,
          reason: p.status_reason,
          by: null,
          payout: presentPayout(p, decimals),
        })),
        ...cases.map((c) => ({
          kind: 'CASE' as const,
          queue: c.queue,
          targetType: c.target_type,
          targetId: c.target_id,
          since: c.created_at,
          reason: c.reason,
          by: c.opened_by,
          case: presentCase(c),
        })),
      ]
        .sort((a, b) => a.since.getTime() - b.since.getTime() || a.targetId.localeCompare(b.targetId))
        .slice(0, limit);
      return { generatedAt: now.toISOString(), items: items.map((i) => ({ ...i, since: i.since.toISOString() })) };
    },
  };
}
