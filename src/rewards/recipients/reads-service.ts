import type { HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import type { PayoutStatus } from '../rows.js';
import { appError } from '../../platform/errors.js';
import { presentPayout } from '../settlements/presenter.js';
import { amount } from '../money/money.js';
import { readBudget, type PaidActionLimits } from './budget.js';
import { ownedBots, payoutTotals, recentPayouts } from './reads-repository.js';
import { findRecipientByHuman } from './recipients-repository.js';
import { presentRecipient, TERMS_VERSION } from './recipients-service.js';

/** Tier weight of a reward vote that consumes a verified `reward:<storyId>` action (src/newsroom/reward-votes). */
const VOTE_WEIGHT = { L3: 3, L2: 2, L0: 1 } as const;
const STATUSES: PayoutStatus[] = ['PAYABLE', 'PENDING_RECIPIENT', 'FROZEN', 'REVIEW'];

/**
 * The private rewards reads of the signed caller: `userId` is the caller's own actorId, any
 * other is 403. Everything is driven by the tier the service recorded and the
 * caller's recipient.
 */
export function createRewardsReadsService(deps: { db: Db<RewardsTables>; clock: Clock; decimals: number; limits: PaidActionLimits }) {
  const { db, clock, decimals, limits } = deps;

  function requireSelf(actor: HumanActor, userId: string): void {
    if (userId !== actor.actorId) throw appError('USER_MISMATCH');
  }

  async function eligibilityOf(actor: HumanActor) {
    const human = actor.verified && actor.linkedHumanId ? actor.linkedHumanId : undefined;
    const recipient = human ? await findRecipientByHuman(db, human) : null;
    const reasons: string[] = [];
    if (actor.tier !== 'L3') reasons.push('L3_IDENTITY_REQUIRED');
    if (!recipient) reasons.push('TERMS_NOT_ACCEPTED');
    else if (recipient.terms_version !== TERMS_VERSION) reasons.push('TERMS_OUTDATED');
    if (!recipient?.wallet_verified_at) reasons.push('WALLET_NOT_VERIFIED');
    if (recipient?.frozen_at) reasons.push('RECIPIENT_FROZEN');
    return {
      userId: actor.actorId,
      tier: actor.tier,
      linkedHumanId: actor.linkedHumanId ?? null,
      rewardVotes: {
        allowed: true,
        weight: VOTE_WEIGHT[actor.tier],
        weightNote: 'The tier weight applies to a vote that consumes a verified human action reward:<storyId>; else 1',
      },
      monetaryRewards: { eligible: reasons.length === 0, reasons },
      canRegisterRecipient: actor.tier === 'L3',
      terms: { version: TERMS_VERSION },
      recipient: recipient ? presentRecipient(recipient) : null,
    };
  }

  return {
    async eligibility(actor: HumanActor, userId: string) {
      requireSelf(actor, userId);
      return eligibilityOf(actor);
    },

    async budget(actor: HumanActor, userId: string) {
      requireSelf(actor, userId);
      return { userId, paidActions: ['reward-vote'], ...(await readBudget(db, actor, limits, new Date(clock.now()))) };
    },

    async dashboard(actor: HumanActor, userId: string) {
      requireSelf(actor, userId);
      const human = actor.verified ? actor.linkedHumanId : undefined;
      const [eligibility, budget, totals, recent, bots] = await Promise.all([
        eligibilityOf(actor),
        readBudget(db, actor, limits, new Date(clock.now())),
        payoutTotals(db, human, actor.actorId),
        recentPayouts(db, human, actor.actorId, 20),
        human ? ownedBots(db, human) : Promise.resolve([]),
      ]);
      const byStatus = new Map(totals.map((t) => [t.status, t]));
      let all = 0n;
      const payouts = Object.fromEntries(
        STATUSES.map((s) => {
          const total = BigInt(byStatus.get(s)?.total ?? '0');
          all += total;
          return [s, { count: Number(byStatus.get(s)?.count ?? 0), amount: amount(total, decimals) }];
        }),
      ) as Record<PayoutStatus, { count: number; amount: ReturnType<typeof amount> }>;
      return {
        userId,
        eligibility: eligibility.monetaryRewards,
        recipient: eligibility.recipient,
        budget,
        bots,
        payouts: { ...payouts, total: amount(all, decimals) },
        recentPayouts: recent.map((p) => presentPayout(p, decimals)),
      };
    },
  };
}
