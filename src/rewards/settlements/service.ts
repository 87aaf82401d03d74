import { identityKey } from '../../platform/auth/admin-policy.js';
import type { HumanActor } from '../../platform/auth/types.js';
import { appendAudit } from '../../platform/audit/audit-log.js';
import type { Clock } from '../../platform/clock.js';
import type { CursorCodec } from '../../platform/cursor.js';
import type { Db, Tx } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import { statementPipeline } from '../../platform/db/bulk/statement-pipeline.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { appError, notFound, validationFailed } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Policy } from '../policy/policy.js';
import { readCurrentPolicy } from '../policy/policy-service.js';
import type { CartelHolds } from './cartel-hook.js';
import { divideShares, ROLES, settlementSeed, splitPool, type PoolSplit, type SettlementInputs } from './compute.js';
import type { BotOwners, EligibleStory, SettlementContributions, WorkUnitsVisitor } from './contributions.js';
import { toBaseUnits, toDisplay } from '../money/money.js';
import {
  inputsDigest,
  moneyRequest,
  needsSecondApproval,
  passSecondApproval,
  type MoneyGate,
  type SecondApprovalRule,
} from '../money/second-approval.js';
import { compressedInputs, storedInputs } from './published-inputs.js';
import {
  paidCount,
  payoutBatches,
  payoutState,
  recipientOf,
  PayoutHolders,
  storySeqRanges,
  type PayoutStandings,
  type PublishedContribution,
} from './payout-rows.js';
import { money, presentPayout, presentSettlement, presentTotals, type RoleTotals } from './presenter.js';
import {
  botPayoutOwners,
  findSettlement,
  findSettlementSummary,
  frozenStoryIds,
  insertPayoutHolders,
  insertPayouts,
  insertSettledStories,
  insertSettlement,
  completeSettlement,
  listPayouts,
  listSettlements,
  lockSettlementRuns,
  recipientsByHuman,
  reservePayoutSeqs,
  settledStoryIds,
  type PayoutFilters,
} from './repository.js';

const MAX_POOL_BASE = 10n ** 60n;
/** Payouts built and encoded at a time while the run's COPY inserts those before (a few ms of work each). */
const PAYOUT_BATCH = 2_000;

export interface SettlementDeps {
  db: Db<RewardsTables>;
  transactor: Transactor<RewardsTables>;
  clock: Clock;
  decimals: number;
  cartelHolds: CartelHolds;
  /** The stories' side of what a settlement divides (the newsroom's rows). */
  contributions: SettlementContributions;
  cursors: CursorCodec;
  /**
   * Whether the database runs several statements at once (a pool; not PGlite's one session): a preview then reads
   * its work units in parts side by side (SettlementContributions).
   */
  readInParts: boolean;
  /**
   * SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS: a pool above it needs a second rewards admin. The
   * composition root always sets it; left out (a bench, a unit test of the arithmetic) no pool needs one.
   */
  secondApproval?: SecondApprovalRule;
  /** The control-plane gate that checks and consumes a second approval (or any request id given). */
  controlPlane: MoneyGate;
}

/** The payout states, in the order the preview explains them. */
const STATES = ['PAYABLE', 'PENDING_RECIPIENT', 'FROZEN', 'REVIEW'] as const;

/** Hands each row of work units to `visit`, and resolves when all are handed over. */
type UnitsReader = (owners: BotOwners, visit: WorkUnitsVisitor) => Promise<void>;

/** A weight worked out from a number of units on stories of one vote weight (decimal texts). */
interface StoryWeight {
  units: string;
  weight: string;
}

/** Everything a settlement divides, read at one moment: the stories, their contributions, the published inputs. */
interface Gathered {
  policy: Policy;
  stories: EligibleStory[];
  inputs: SettlementInputs;
  contributions: PublishedContribution[];
  /** Read after the contributions: recipients, frozen stories and cartel holds (payouts' initial states). */
  standings: Promise<PayoutStandings>;
}

/** The roles' totals as a settlement records them (decimal strings). */
function roleTotals(split: PoolSplit): RoleTotals {
  return Object.fromEntries(
    ROLES.map((r) => [
      r,
      {
        poolBase: split.roles[r].poolBase.toString(),
        paidBase: split.roles[r].paidBase.toString(),
        weight: split.roles[r].weight.toString(),
      },
    ]),
  ) as RoleTotals;
}

/**
 * Settlement of closed reward windows: preview computes without writing, run writes one
 * settlement, the stories it settled and its payouts in one transaction, after which nothing of it changes
 * but payout states (freezes, reviews, wallet binding).
 */
export function createSettlementService(deps: SettlementDeps) {
  const { db, transactor, clock, decimals, cartelHolds, contributions: fromStories, cursors, readInParts, controlPlane } = deps;
  const secondApproval = deps.secondApproval ?? { aboveBase: MAX_POOL_BASE, decimals };

  /**
   * The settlement.run request a run of `pool` over these stories under this policy needs above the threshold:
   * the pool in orbs and the digest of exactly what the run divides (policy version, pool, the stories).
   */
  function runRequest(policyVersion: number, pool: bigint, storyIds: readonly string[]) {
    const previewDigest = inputsDigest({ policyVersion, poolBase: pool.toString(), storyIds: [...storyIds].sort() });
    return moneyRequest('settlement.run', { totalPoolOrbs: toDisplay(pool, decimals), previewDigest });
  }

  /**
   * The pool in base units, exactly, from the decimal text of `totalPoolOrbs` (a JSON number's own digits, a
   * decimal string or the query text: platform/decimal-input.ts). At least 0.01 display units.
   */
  function poolBase(totalPoolOrbs: string, path: string): bigint {
    const base = toBaseUnits(totalPoolOrbs, decimals);
    // numeric(78,0) holds the amounts; 10^60 base units leaves room for every sum a settlement makes
    if (base === null || base * 100n < 10n ** BigInt(decimals) || base >= MAX_POOL_BASE) {
      throw validationFailed([
        {
          path,
          message: `must be an amount of at least 0.01 with at most ${decimals} decimals (REWARD_TOKEN_DECIMALS), below 10^60 base units`,
        },
      ]);
    }
    return base;
  }

  /**
   * Reads everything a settlement divides at `now` under `policy` through `q` (the run's transaction, or the
   * database for a preview); `readUnits` hands over the work units, a batch at a time for a run (its cursor) or
   * all at once for a preview.
   */
  async function gather(q: Db<RewardsTables>, policy: Policy, pool: bigint, now: Date, readUnits: UnitsReader): Promise<Gathered> {
    const [stories, owners] = await Promise.all([fromStories.eligibleStories(q, now), botPayoutOwners(q)]);
    if (!stories.length) throw appError('NOTHING_TO_SETTLE');
    // grouped by story, in the order of the stories: each story's payouts then have one block of seq
    // (payout-rows.ts) and are inserted together. The stories of one vote weight share their weights by units.
    const weights = new Map<string, Map<string, StoryWeight | null>>();
    const byStory = new Map(
      stories.map((s) => {
        const known = weights.get(s.vote_weight) ?? new Map<string, StoryWeight | null>();
        weights.set(s.vote_weight, known);
        return [
          s.id,
          {
            id: s.id,
            voteWeight: BigInt(s.vote_weight),
            voteWeightText: s.vote_weight,
            weights: known,
            list: [] as PublishedContribution[],
          },
        ];
      }),
    );
    /**
     * The weight of `units` on `story` (units × vote weight) with the units' text kept once, null when not positive;
     * worked out once per units and vote weight.
     */
    const weightOf = (story: { voteWeight: bigint; weights: Map<string, StoryWeight | null> }, units: string): StoryWeight | null => {
      const known = story.weights.get(units);
      if (known !== undefined) return known;
      const weight = BigInt(units) * story.voteWeight;
      const entry = weight > 0n ? { units, weight: weight.toString() } : null;
      story.weights.set(units, entry);
      return entry;
    };
    // A run keeps a million contributions: each repeated text is kept once, not once per row as the driver parsed
    // it. The roles and a bot's id and owner come as shared strings (WorkUnitsVisitor) and the units through
    // `weightOf`; a flagger's texts are kept once here (a Map: 1.57-1.79 s of process CPU for the run, 1.86-2.03 s
    // with platform/interner.ts, whose hash of the characters is for fresh strings).
    const texts = new Map<string, string>();
    const once = (text: string): string => {
      const kept = texts.get(text);
      if (kept !== undefined) return kept;
      texts.set(text, text);
      return text;
    };
    const unitsRead = readUnits(owners, (storyId, role, beneficiaryKind, beneficiaryId, owner, units) => {
      const story = byStory.get(storyId);
      if (!story) return;
      const weight = weightOf(story, units);
      if (weight === null) return;
      const human = beneficiaryKind === 'HUMAN';
      story.list.push({
        storyId: story.id,
        role,
        beneficiaryKind,
        beneficiaryId: human ? once(beneficiaryId) : beneficiaryId,
        weight: weight.weight,
        units: weight.units,
        storyVoteWeight: story.voteWeightText,
        owner: human && owner !== null ? once(owner) : owner,
      });
    });
    // the small lookups the payout states need (recipients, frozen stories, the cartel hook's flagged members),
    // asked for at once: a transaction answers them before the cursor's first batch (tens of ms at a million)
    const standings: Promise<PayoutStandings> = Promise.all([recipientsByHuman(q), frozenStoryIds(q), cartelHolds(q)]).then(
      ([recipients, frozenStories, held]) => ({ recipients, frozenStories, held }),
    );
    standings.catch(() => undefined);
    // a failed read must not leave the lookups queued on a connection its transaction is about to give back
    await unitsRead.catch(async (err: unknown) => {
      await standings.catch(() => undefined);
      throw err;
    });
    // the stories' lists one after the other, copied into an array of their total length (a million: flatMap
    // takes several times as long, growing its array as it goes)
    let total = 0;
    for (const story of byStory.values()) total += story.list.length;
    const contributions = new Array<PublishedContribution>(total);
    let at = 0;
    for (const { list } of byStory.values()) for (let i = 0; i < list.length; i++) contributions[at++] = list[i]!;
    return {
      policy,
      stories,
      contributions,
      standings,
      inputs: {
        poolBase: pool.toString(),
        escrowPpm: policy.escrowPpm,
        splitsPpm: policy.splitsPpm,
        seed: settlementSeed(
          pool,
          stories.map((s) => s.id),
        ),
        contributions,
      },
    };
  }

  function publishedInputs(p: Gathered) {
    return {
      policyVersion: p.policy.version,
      poolBase: p.inputs.poolBase,
      escrowPpm: p.inputs.escrowPpm,
      splitsPpm: p.inputs.splitsPpm,
      seed: p.inputs.seed,
      stories: p.stories.map((s) => ({
        storyId: s.id,
        voteWeight: s.vote_weight,
        reviewStatus: s.review_status,
        rewardWindowEndedAt: s.reward_window_ends_at.toISOString(),
      })),
      contributions: p.contributions,
    };
  }

  return {
    /** What a run would pay now, without writing anything. */
    async preview(actor: HumanActor, totalPoolOrbs: string) {
      void actor;
      const now = new Date(clock.now());
      const base = poolBase(totalPoolOrbs, '/querystring/totalPoolOrbs');
      // outside a transaction the work units are read on connections of their own while the stories are read
      const unitsRead = fromStories.workUnits(db, now, readInParts);
      unitsRead.catch(() => undefined);
      const g = await gather(db, await readCurrentPolicy(db), base, now, async (owners, visit) => (await unitsRead)(owners, visit));
      const split = splitPool(g.inputs);
      const amounts = divideShares(g.inputs, split);
      const byBeneficiary = new Map<string, { beneficiaryKind: string; beneficiaryId: string; amount: bigint; payable: bigint }>();
      const byState: Record<(typeof STATES)[number], bigint> = { PAYABLE: 0n, PENDING_RECIPIENT: 0n, FROZEN: 0n, REVIEW: 0n };
      // the shares as the run would pay them, without building its payout rows: a payout per non-zero share
      const standings = await g.standings;
      g.contributions.forEach((c, i) => {
        const amount = amounts[i]!;
        if (amount === 0n) return;
        const key = `${c.beneficiaryKind}:${c.beneficiaryId}`;
        const entry = byBeneficiary.get(key) ?? {
          beneficiaryKind: c.beneficiaryKind,
          beneficiaryId: c.beneficiaryId,
          amount: 0n,
          payable: 0n,
        };
        entry.amount += amount;
        const state = payoutState(c, recipientOf(c, standings), standings).status;
        byState[state] += amount;
        if (state === 'PAYABLE') entry.payable += amount;
        byBeneficiary.set(key, entry);
      });
      const pool = BigInt(g.inputs.poolBase);
      const request = runRequest(
        g.policy.version,
        pool,
        g.stories.map((s) => s.id),
      );
      return {
        preview: true as const,
        previewDigest: request.payload.previewDigest!,
        pending: money(byState.PENDING_RECIPIENT + byState.FROZEN + byState.REVIEW, decimals),
        byStatus: Object.fromEntries(STATES.map((state) => [state, money(byState[state], decimals)])) as Record<
          (typeof STATES)[number],
          ReturnType<typeof money>
        >,
        secondApproval: {
          required: needsSecondApproval(secondApproval, pool),
          aboveOrbs: toDisplay(secondApproval.aboveBase, decimals),
          request: { action: request.action, target: 'settlement' as const, payload: request.payload },
        },
        policyVersion: g.policy.version,
        policyStatus: g.policy.status,
        runnable: g.policy.status === 'ACTIVE',
        windowsClosedBefore: now.toISOString(),
        ...presentTotals(pool, split.escrowBase, split.paidBase, roleTotals(split), decimals),
        storyCount: g.stories.length,
        contributionCount: g.contributions.length,
        payoutCount: paidCount(amounts),
        stories: g.stories.map((s) => ({ storyId: s.id, voteWeight: s.vote_weight })),
        beneficiaries: [...byBeneficiary.values()]
          .sort((a, b) => (a.amount === b.amount ? a.beneficiaryId.localeCompare(b.beneficiaryId) : a.amount > b.amount ? -1 : 1))
          .map((b) => ({
            beneficiaryKind: b.beneficiaryKind as 'BOT' | 'HUMAN',
            beneficiaryId: b.beneficiaryId,
            amount: money(b.amount, decimals),
            payableAmount: money(b.payable, decimals),
          })),
      };
    },

    /**
     * Settles every closed, unsettled story in one transaction; audited. A pool above
     * SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS needs the id of an EXECUTED settlement.run request for exactly this
     * pool and these stories (money/second-approval.ts), consumed with the run.
     */
    async run(actor: HumanActor, totalPoolOrbs: string, controlPlaneRequestId?: string) {
      const pool = poolBase(totalPoolOrbs, '/totalPoolOrbs');
      return withTransaction(transactor, async (tx) => {
        await lockSettlementRuns(tx);
        const now = new Date(clock.now());
        const policy = await readCurrentPolicy(tx);
        if (policy.status !== 'ACTIVE') {
          throw appError('REWARDS_PAUSED', { message: `The rewards policy is ${policy.status}: settlements do not run` });
        }
        if (controlPlaneRequestId === undefined && needsSecondApproval(secondApproval, pool)) {
          // refused before the work units are read: the request to file names the stories only
          const stories = await fromStories.eligibleStories(tx, now);
          if (!stories.length) throw appError('NOTHING_TO_SETTLE');
          const expected = runRequest(
            policy.version,
            pool,
            stories.map((s) => s.id),
          );
          await passSecondApproval(tx, controlPlane, {
            rule: secondApproval,
            amountBase: pool,
            requestId: undefined,
            expected,
            actor,
            at: now,
          });
        }
        const g = await gather(tx, policy, pool, now, (owners, visit) => fromStories.streamWorkUnits(tx, now, owners, visit));
        const approvedBy = await passSecondApproval(tx, controlPlane, {
          rule: secondApproval,
          amountBase: pool,
          requestId: controlPlaneRequestId,
          expected: runRequest(
            policy.version,
            pool,
            g.stories.map((s) => s.id),
          ),
          actor,
          at: now,
        });
        const split = splitPool(g.inputs);
        const standings = await g.standings;
        const id = newId('se');
        const count = g.contributions.length;
        const firstSeq = await reservePayoutSeqs(tx, count);
        await insertSettlement(tx, {
          id,
          policy_version: policy.version,
          pool_base: pool,
          escrow_base: split.escrowBase,
          paid_base: split.paidBase,
          token_decimals: decimals,
          windows_closed_before: now,
          story_count: g.stories.length,
          contribution_count: count,
          payout_count: 0, // completeSettlement writes the count
          payout_seq_first: firstSeq,
          payout_seq_last: firstSeq === null ? null : firstSeq + BigInt(count - 1),
          role_totals: JSON.stringify(roleTotals(split)),
          created_by: identityKey(actor),
          created_at: now,
        });
        // The rest is sent without waiting for each answer: the database marks the stories settled while the
        // process divides the roles' shares between the contributions; then one COPY inserts the payouts as the
        // process builds them, a batch at a time, and meanwhile the process serializes the published inputs (tens
        // of MB of JSON, a slice at a time) and compresses them on the thread pool.
        const writes = statementPipeline();
        const seqBase = firstSeq ?? 0n;
        await writes.send(
          insertSettledStories(
            tx,
            id,
            storySeqRanges(
              g.stories.map((s) => s.id),
              g.contributions,
              seqBase,
            ),
          ),
        );
        const amounts = divideShares(g.inputs, split);
        // the payouts' persons are recorded as their rows are built, and inserted once they all are
        const holders = new PayoutHolders();
        const payouts = insertPayouts(
          tx,
          id,
          now,
          holders.record(payoutBatches(g.contributions, amounts, standings, seqBase, PAYOUT_BATCH)),
        );
        await writes.send(payouts);
        await writes.send(
          insertPayoutHolders(
            tx,
            id,
            payouts.then(() => holders.list()),
          ),
        );
        await writes.send(completeSettlement(tx, id, paidCount(amounts), await compressedInputs(publishedInputs(g))));
        await writes.done();
        await appendAudit(tx, {
          scope: 'REWARDS',
          action: 'settlement.run',
          actor,
          target: id,
          details: {
            poolBase: pool.toString(),
            escrowBase: split.escrowBase.toString(),
            paidBase: split.paidBase.toString(),
            stories: g.stories.length,
            controlPlaneRequestId: approvedBy,
          },
          at: now,
        });
        const row = await findSettlementSummary(tx, id);
        return presentSettlement(row!, decimals);
      });
    },

    async list(limit: number, cursor?: string) {
      const rows = await listSettlements(db, limit + 1, cursors.afterSeq('settlements', cursor) ?? undefined);
      const page = rows.slice(0, limit);
      return {
        items: page.map((r) => presentSettlement(r, decimals)),
        ...(rows.length > limit ? { nextCursor: cursors.encode('settlements', [page[page.length - 1]!.seq]) } : {}),
      };
    },

    async get(id: string) {
      const row = await findSettlement(db, id);
      if (!row) throw notFound('settlement');
      const [storyIds, inputs] = await Promise.all([settledStoryIds(db, id), storedInputs(row)]);
      return { ...presentSettlement(row, decimals), storyIds, inputs: inputs as never };
    },

    async payouts(filters: PayoutFilters, limit: number, cursor?: string) {
      const rows = await listPayouts(db, filters, limit + 1, cursors.afterSeq('payouts', cursor) ?? undefined);
      const page = rows.slice(0, limit);
      return {
        items: page.map((r) => presentPayout(r, decimals)),
        ...(rows.length > limit ? { nextCursor: cursors.encode('payouts', [page[page.length - 1]!.seq]) } : {}),
      };
    },
  };
}

/**
 * Waits for a settlement run in progress and keeps new runs out until `tx` ends. A write that changes what a run
 * reads to give its payouts their owner and state takes it first: a bot's new owner, a recipient's verified
 * wallet, a recipient's or a story's freeze and unfreeze. Otherwise a run that read the state before the write
 * committed would create payouts in the old state after the write had moved the existing ones (waiting for a
 * release that already happened, or payable under a freeze).
 */
export async function holdSettlementRuns(tx: Tx<RewardsTables>): Promise<void> {
  await lockSettlementRuns(tx);
}
