import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { constants as zlibConstants, gunzip, gzip } from 'node:zlib';
import { identityKey } from '../../platform/auth/admin-policy.js';
import type { HumanActor } from '../../platform/auth/types.js';
import { appendAudit } from '../../platform/audit/audit-log.js';
import type { Clock } from '../../platform/clock.js';
import type { CursorCodec } from '../../platform/cursor.js';
import type { Db } from '../../platform/db/database.js';
import { statementPipeline } from '../../platform/db/statement-pipeline.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { appError, notFound, validationFailed } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { policyOf, type Policy } from '../rewards/policy.js';
import { currentPolicy } from '../rewards/policy-repository.js';
import type { CartelHolds } from './cartel-hook.js';
import { computeSettlement, ROLES, settlementSeed, type Contribution, type SettlementInputs } from './compute.js';
import { eligibleStories, workUnits, type EligibleStory } from './contributions-repository.js';
import { toBaseUnits } from './money.js';
import { initialPayoutStatus } from './payout-status.js';
import { money, presentPayout, presentSettlement, presentTotals, type RoleTotals } from './presenter.js';
import {
  findSettlement,
  findSettlementSummary,
  frozenStoryIds,
  insertPayouts,
  insertSettledStories,
  insertSettlement,
  listPayouts,
  listSettlements,
  lockSettlementRuns,
  publishSettlementInputs,
  recipientsByHuman,
  reservePayoutSeqs,
  settledStoryIds,
  type NewPayout,
  type PayoutFilters,
} from './repository.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/**
 * The published inputs as stored: gzip at its fastest level, compressed on libuv's thread pool (tens of MB of
 * JSON for a large run), so the event loop and the database's insert of the payouts go on meanwhile.
 */
function compressInputs(json: string): Promise<Buffer> {
  return gzipAsync(json, { level: zlibConstants.Z_BEST_SPEED });
}

/** The published inputs of a stored settlement: gzip-compressed JSON, or json for settlements written before 0015. */
async function storedInputs(row: { inputs: unknown; inputs_gzip: Uint8Array | null }): Promise<unknown> {
  if (!row.inputs_gzip) return row.inputs;
  return JSON.parse((await gunzipAsync(row.inputs_gzip)).toString('utf8')) as unknown;
}

const MAX_POOL_BASE = 10n ** 60n;
/** Payouts per INSERT of a run: small enough that building the next batch overlaps the database's insert. */
const PAYOUT_BATCH = 10_000;

export interface SettlementDeps {
  db: Db;
  transactor: Transactor;
  clock: Clock;
  decimals: number;
  cartelHolds: CartelHolds;
  cursors: CursorCodec;
}

/** A contribution with what made its weight (published with the settlement). */
export interface PublishedContribution extends Contribution {
  units: string;
  storyVoteWeight: string;
  owner: string | null;
}

interface Plan {
  policy: Policy;
  stories: EligibleStory[];
  inputs: SettlementInputs;
  contributions: PublishedContribution[];
  amounts: bigint[];
  escrowBase: bigint;
  roles: RoleTotals;
  /** Recipients by linked human, and the frozen stories: what gives each payout its initial state. */
  recipients: Awaited<ReturnType<typeof recipientsByHuman>>;
  frozenStories: Set<string>;
}

/**
 * Settlement of closed reward windows (docs/rewards.md): preview computes without writing, run writes one
 * settlement, the stories it settled and its payouts in one transaction, after which nothing of it changes
 * but payout states (freezes, reviews, wallet binding).
 */
export function createSettlementService(deps: SettlementDeps) {
  const { db, transactor, clock, decimals, cartelHolds, cursors } = deps;

  function poolBase(totalPoolOrbs: number): bigint {
    const base = toBaseUnits(String(totalPoolOrbs), decimals);
    // numeric(78,0) holds the amounts; 10^60 base units leaves room for every sum a settlement makes
    if (base === null || base <= 0n || base >= MAX_POOL_BASE) {
      throw validationFailed([
        {
          path: '/totalPoolOrbs',
          message: `must be a positive amount with at most ${decimals} decimals (REWARD_TOKEN_DECIMALS), below 10^60 base units`,
        },
      ]);
    }
    return base;
  }

  /** Reads everything a settlement needs at `now` under `policy` through `q` (the run's transaction, or the database for a preview). */
  async function plan(q: Db, policy: Policy, pool: bigint, now: Date): Promise<Plan> {
    // All reads leave at once: on the run's single connection the database answers them one after the other
    // while the process groups and divides (the payout lookups are only needed after the division).
    const storiesRead = eligibleStories(q, now);
    const unitsRead = workUnits(q, now);
    const lookups = Promise.all([recipientsByHuman(q), frozenStoryIds(q)]);
    unitsRead.catch(() => undefined);
    lookups.catch(() => undefined);
    const stories = await storiesRead;
    if (!stories.length) throw appError('NOTHING_TO_SETTLE');
    const voteWeight = new Map(stories.map((s) => [s.id, BigInt(s.vote_weight)]));
    // grouped by story, in the order of the stories: each story's payouts are then inserted together, which keeps
    // the payouts' story index warm (with the B-tree of 0012: about a fifth less database work than arbitrary order)
    const byStory = new Map<string, PublishedContribution[]>(stories.map((s) => [s.id, []]));
    for (const u of await unitsRead) {
      const storyVoteWeight = voteWeight.get(u.story_id) ?? 0n;
      const weight = BigInt(u.units) * storyVoteWeight;
      if (weight <= 0n) continue;
      byStory.get(u.story_id)?.push({
        storyId: u.story_id,
        role: u.role,
        beneficiaryKind: u.beneficiary_kind,
        beneficiaryId: u.beneficiary_id,
        weight: weight.toString(),
        units: u.units,
        storyVoteWeight: storyVoteWeight.toString(),
        owner: u.owner,
      });
    }
    const contributions = [...byStory.values()].flat();
    const inputs: SettlementInputs = {
      poolBase: pool.toString(),
      escrowPpm: policy.escrowPpm,
      splitsPpm: policy.splitsPpm,
      seed: settlementSeed(
        pool,
        stories.map((s) => s.id),
      ),
      contributions,
    };
    const result = computeSettlement(inputs);
    const roles = Object.fromEntries(
      ROLES.map((r) => [
        r,
        {
          poolBase: result.roles[r].poolBase.toString(),
          paidBase: result.roles[r].paidBase.toString(),
          weight: result.roles[r].weight.toString(),
        },
      ]),
    ) as RoleTotals;
    const [recipients, frozenStories] = await lookups;
    return {
      policy,
      stories,
      inputs,
      contributions,
      amounts: result.amounts,
      escrowBase: result.escrowBase,
      roles,
      recipients,
      frozenStories,
    };
  }

  /** Payout rows for the non-zero amounts, each in the state its story, person and review hold give it. */
  async function payoutRows(q: Db, p: Plan): Promise<NewPayout[]> {
    const { recipients, frozenStories } = p;
    const paid = p.contributions.filter((_, i) => p.amounts[i]! > 0n);
    const held = await cartelHolds(
      q,
      paid.map((c) => ({ kind: c.beneficiaryKind, id: c.beneficiaryId, owner: c.owner })),
    );
    // payout ids: one random prefix per settlement and a counter (a random id each costs a syscall per row),
    // zero-padded so that the run's ids ascend and its primary-key inserts go to neighbouring leaves
    const prefix = `po_${randomBytes(9).toString('base64url')}`;
    let n = 0;
    return p.contributions.flatMap((c, i) => {
      const amount = p.amounts[i]!;
      if (amount === 0n) return [];
      const recipient = c.owner ? recipients.get(c.owner) : undefined;
      const { status, reason } = initialPayoutStatus({
        storyFrozen: frozenStories.has(c.storyId),
        recipientFrozen: Boolean(recipient?.frozen_at),
        heldForReview: held.has(`${c.beneficiaryKind}:${c.beneficiaryId}`),
        walletVerified: Boolean(recipient?.wallet_verified_at),
      });
      return [
        {
          id: `${prefix}${(n++).toString(36).padStart(4, '0')}`,
          story_id: c.storyId,
          role: c.role,
          beneficiary_kind: c.beneficiaryKind,
          beneficiary_id: c.beneficiaryId,
          linked_human_id: c.owner,
          recipient_id: recipient?.id ?? null,
          weight: c.weight,
          amount_base: amount.toString(),
          status,
          status_reason: reason,
        },
      ];
    });
  }

  function publishedInputs(p: Plan) {
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
    async preview(actor: HumanActor, totalPoolOrbs: number) {
      void actor;
      const now = new Date(clock.now());
      const p = await plan(db, policyOf(await currentPolicy(db)), poolBase(totalPoolOrbs), now);
      const rows = await payoutRows(db, p);
      const byBeneficiary = new Map<string, { beneficiaryKind: string; beneficiaryId: string; amount: bigint; payable: bigint }>();
      for (const r of rows) {
        const key = `${r.beneficiary_kind}:${r.beneficiary_id}`;
        const entry = byBeneficiary.get(key) ?? {
          beneficiaryKind: r.beneficiary_kind,
          beneficiaryId: r.beneficiary_id,
          amount: 0n,
          payable: 0n,
        };
        entry.amount += BigInt(r.amount_base);
        if (r.status === 'PAYABLE') entry.payable += BigInt(r.amount_base);
        byBeneficiary.set(key, entry);
      }
      const paid = rows.reduce((a, r) => a + BigInt(r.amount_base), 0n);
      return {
        preview: true as const,
        policyVersion: p.policy.version,
        policyStatus: p.policy.status,
        runnable: p.policy.status === 'ACTIVE',
        windowsClosedBefore: now.toISOString(),
        ...presentTotals(BigInt(p.inputs.poolBase), p.escrowBase, paid, p.roles, decimals),
        storyCount: p.stories.length,
        contributionCount: p.contributions.length,
        payoutCount: rows.length,
        stories: p.stories.map((s) => ({ storyId: s.id, voteWeight: s.vote_weight })),
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

    /** Settles every closed, unsettled story in one transaction; audited. */
    async run(actor: HumanActor, totalPoolOrbs: number) {
      const pool = poolBase(totalPoolOrbs);
      return withTransaction(transactor, async (tx) => {
        await lockSettlementRuns(tx);
        const now = new Date(clock.now());
        const policy = policyOf(await currentPolicy(tx));
        if (policy.status !== 'ACTIVE') {
          throw appError('REWARDS_PAUSED', { message: `The rewards policy is ${policy.status}: settlements do not run` });
        }
        const p = await plan(tx, policy, pool, now);
        const rows = await payoutRows(tx, p);
        const paid = rows.reduce((a, r) => a + BigInt(r.amount_base), 0n);
        const id = newId('se');
        const by = identityKey(actor);
        const firstSeq = await reservePayoutSeqs(tx, rows.length);
        await insertSettlement(tx, {
          id,
          policy_version: p.policy.version,
          pool_base: pool,
          escrow_base: p.escrowBase,
          paid_base: paid,
          token_decimals: decimals,
          windows_closed_before: now,
          story_count: p.stories.length,
          contribution_count: p.contributions.length,
          payout_count: rows.length,
          payout_seq_first: firstSeq,
          payout_seq_last: firstSeq === null ? null : firstSeq + BigInt(rows.length - 1),
          role_totals: JSON.stringify(p.roles),
          created_by: by,
          created_at: now,
        });
        // The rest is sent without waiting for each answer: while the database inserts one batch of payouts,
        // the process builds the next one, then serializes the published inputs (tens of MB of JSON) and
        // compresses them on the thread pool.
        const writes = statementPipeline();
        await writes.send(
          insertSettledStories(
            tx,
            id,
            p.stories.map((s) => s.id),
          ),
        );
        for (let i = 0; i < rows.length; i += PAYOUT_BATCH) {
          await writes.send(insertPayouts(tx, id, now, firstSeq! + BigInt(i), rows.slice(i, i + PAYOUT_BATCH)));
        }
        await writes.send(publishSettlementInputs(tx, id, await compressInputs(JSON.stringify(publishedInputs(p)))));
        await writes.done();
        await appendAudit(tx, {
          scope: 'REWARDS',
          action: 'settlement.run',
          actor,
          target: id,
          details: { poolBase: pool.toString(), escrowBase: p.escrowBase.toString(), paidBase: paid.toString(), stories: p.stories.length },
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
        settlements: page.map((r) => presentSettlement(r, decimals)),
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
        payouts: page.map((r) => presentPayout(r, decimals)),
        ...(rows.length > limit ? { nextCursor: cursors.encode('payouts', [page[page.length - 1]!.seq]) } : {}),
      };
    },
  };
}
