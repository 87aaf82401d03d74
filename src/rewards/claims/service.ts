import type { Selectable } from 'kysely';
import { keccak256, toBytes, type Hex } from 'viem';
import { identityKey } from '../../platform/auth/admin-policy.js';
import type { HumanActor } from '../../platform/auth/types.js';
import { appendAudit } from '../../platform/audit/audit-log.js';
import type { Clock } from '../../platform/clock.js';
import type { CursorCodec } from '../../platform/cursor.js';
import { pageOf } from '../../platform/cursor.js';
import { isUniqueViolation, type Db } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import type { ClaimBatchesTable } from '../rows.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { appError, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recipientOfHuman } from '../recipients/recipients-service.js';
import { amount, toDisplay } from '../money/money.js';
import {
  inputsDigest,
  moneyRequest,
  needsSecondApproval,
  passSecondApproval,
  type MoneyGate,
  type SecondApprovalRule,
} from '../money/second-approval.js';
import { distributorEvents, type ClaimChain } from './chain.js';
import { buildDistribution, proofHashes } from './merkle.js';
import {
  claimedCount,
  countBatches,
  findBatch,
  findReceipt,
  insertBatch,
  insertReceipt,
  leafOfRecipient,
  listBatches,
  lockUnbatchedPayable,
  readUnbatchedPayable,
} from './repository.js';

/** The claim rail's settings: off unless CLAIMS_ENABLED=1, usable once the chain is configured. */
export interface ClaimRailConfig {
  enabled: boolean;
  distributorAddress: string | undefined;
  minConfirmations: number;
  decimals: number;
}

export interface ClaimsDeps {
  db: Db<RewardsTables>;
  transactor: Transactor<RewardsTables>;
  clock: Clock;
  cursors: CursorCodec;
  rail: ClaimRailConfig;
  /** null when CHAIN_RPC_URL is unset */
  chain: ClaimChain | null;
  /**
   * SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS: a batch total above it needs a second rewards admin.
   * The composition root always sets it; left out (a unit test) no batch needs one.
   */
  secondApproval?: SecondApprovalRule;
  /** The control-plane gate that checks and consumes a second approval (or any request id given). */
  controlPlane: MoneyGate;
}

const DAY_MS = 86_400_000;
/** Seconds per block assumed for the retry hint of an unconfirmed receipt (Ethereum mainnet's slot time). */
const BLOCK_SECONDS = 12;

export function presentBatch(b: Selectable<ClaimBatchesTable>) {
  return {
    id: b.id,
    chainBatchId: b.chain_batch_id,
    merkleRoot: b.merkle_root,
    distributorAddress: b.distributor_address,
    leafEncoding: ['address', 'uint256'],
    total: amount(BigInt(b.total_base), b.token_decimals),
    leafCount: b.leaf_count,
    payoutCount: b.payout_count,
    claimDeadline: b.claim_deadline.toISOString(),
    status: b.status,
    frozen: b.status === 'FROZEN',
    frozenReason: b.frozen_reason,
    onChainFreezeTxHash: b.freeze_tx_hash,
    finalizedBy: b.finalized_by,
    createdAt: b.created_at.toISOString(),
  };
}

/** The batch's key in the distributor contract: keccak256 of its id. */
export const chainBatchId = (batchId: string): Hex => keccak256(toBytes(batchId));

export function createClaimsService(deps: ClaimsDeps) {
  const { db, transactor, clock, cursors, rail, chain, controlPlane } = deps;
  const secondApproval = deps.secondApproval ?? { aboveBase: 10n ** 78n, decimals: rail.decimals };

  /** The batch.finalize request a batch of this total, root and window needs above the threshold. */
  function finalizeRequest(d: { root: string; total: bigint }, payoutCount: number, claimWindowDays: number) {
    const previewDigest = inputsDigest({ merkleRoot: d.root, totalBase: d.total.toString(), payoutCount, claimWindowDays });
    return moneyRequest('batch.finalize', {
      totalOrbs: toDisplay(d.total, rail.decimals),
      claimWindowDays: String(claimWindowDays),
      previewDigest,
    });
  }
  const configured = () => rail.enabled && Boolean(chain && rail.distributorAddress);

  function requireEnabled() {
    if (!rail.enabled) throw appError('CLAIMS_DISABLED');
  }
  function requireChain(): ClaimChain {
    if (!configured()) throw appError('CLAIM_RAIL_NOT_CONFIGURED');
    return chain!;
  }

  return {
    /** Public: whether the rail is on and where it points. */
    async status() {
      const state = !rail.enabled ? ('DISABLED' as const) : configured() ? ('ACTIVE' as const) : ('NOT_CONFIGURED' as const);
      return {
        enabled: rail.enabled,
        state,
        distributorAddress: rail.enabled ? (rail.distributorAddress?.toLowerCase() ?? null) : null,
        minConfirmations: rail.minConfirmations,
        leafEncoding: ['address', 'uint256'],
        batchCount: rail.enabled ? await countBatches(db) : 0,
      };
    },

    /** Public: the batches, newest first; empty while the rail is disabled. */
    async batches(limit: number, cursor: string | undefined) {
      if (!rail.enabled) return { items: [] };
      const after = cursors.afterSeq('claim-batches', cursor);
      const rows = await listBatches(db, after, limit);
      const page = pageOf(rows, limit, (last) => cursors.encode('claim-batches', [last.seq]));
      return { items: page.items.map(presentBatch), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    },

    /** The signed caller's leaf and proof in a batch; 404 when claims are off or the caller has no leaf. */
    async proof(actor: HumanActor, userId: string, batchId: string) {
      requireEnabled();
      if (userId !== actor.actorId) throw appError('USER_MISMATCH');
      const { batch, leaf } = await callerLeaf(actor, batchId);
      const receipt = await findReceipt(db, batch.id, leaf.leaf_index);
      return {
        batchId: batch.id,
        chainBatchId: batch.chain_batch_id,
        merkleRoot: batch.merkle_root,
        distributorAddress: batch.distributor_address,
        claimDeadline: batch.claim_deadline.toISOString(),
        batchStatus: batch.status,
        leafIndex: leaf.leaf_index,
        account: leaf.wallet_address,
        amount: amount(BigInt(leaf.amount_base), batch.token_decimals),
        proof: proofHashes(leaf.proof),
        claimed: Boolean(receipt),
        claimTxHash: receipt?.tx_hash ?? null,
      };
    },

    /**
     * What a finalize would batch now (writes nothing): its total, payouts, the recipients it pays (largest first)
     * and whether it needs a second rewards admin, with the batch.finalize request to file then. Null when nothing
     * is payable.
     */
    async finalizePreview(claimWindowDays: number) {
      requireChain();
      const shares = await readUnbatchedPayable(db);
      if (shares.length === 0) return null;
      const d = await buildDistribution(shares);
      const request = finalizeRequest(d, shares.length, claimWindowDays);
      const byRecipient = new Map<string, { linkedHumanId: string; wallet: string; base: bigint; payoutCount: number }>();
      for (const share of shares) {
        const seen = byRecipient.get(share.recipientId) ?? {
          linkedHumanId: share.linkedHumanId,
          wallet: share.wallet,
          base: 0n,
          payoutCount: 0,
        };
        byRecipient.set(share.recipientId, { ...seen, base: seen.base + share.amountBase, payoutCount: seen.payoutCount + 1 });
      }
      const recipients = [...byRecipient.values()]
        .sort((a, b) => (a.base === b.base ? a.linkedHumanId.localeCompare(b.linkedHumanId) : a.base > b.base ? -1 : 1))
        .map(({ base, ...r }) => ({ ...r, amount: amount(base, rail.decimals) }));
      return {
        total: amount(d.total, rail.decimals),
        payoutCount: shares.length,
        leafCount: d.leaves.length,
        recipients,
        previewDigest: request.payload.previewDigest!,
        secondApproval: {
          required: needsSecondApproval(secondApproval, d.total),
          aboveOrbs: toDisplay(secondApproval.aboveBase, rail.decimals),
          request,
        },
      };
    },

    /**
     * Rewards admin: puts every payable payout that no batch carries yet into a new batch (one leaf per bound
     * wallet) and stores its manifest and root. The payouts' key in claim_batch_payouts keeps each in one batch.
     * A total above SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS needs the id of an EXECUTED batch.finalize request for
     * exactly this batch (money/second-approval.ts), consumed with the finalize.
     */
    async finalize(actor: HumanActor, claimWindowDays: number, controlPlaneRequestId?: string) {
      requireChain();
      const distributor = rail.distributorAddress!.toLowerCase();
      try {
        return await withTransaction(transactor, async (tx) => {
          const shares = await lockUnbatchedPayable(tx);
          if (shares.length === 0) throw appError('NOTHING_TO_DISTRIBUTE');
          const d = await buildDistribution(shares);
          const now = new Date(clock.now());
          const approvedBy = await passSecondApproval(tx, controlPlane, {
            rule: secondApproval,
            amountBase: d.total,
            requestId: controlPlaneRequestId,
            expected: finalizeRequest(d, shares.length, claimWindowDays),
            actor,
            at: now,
          });
          const id = newId('cb');
          const row = {
            id,
            chain_batch_id: chainBatchId(id),
            merkle_root: d.root,
            distributor_address: distributor,
            total_base: d.total.toString(),
            token_decimals: rail.decimals,
            leaf_count: d.leaves.length,
            payout_count: shares.length,
            claim_deadline: new Date(now.getTime() + claimWindowDays * DAY_MS),
            status: 'ACTIVE' as const,
            finalized_by: identityKey(actor),
            created_at: now,
            updated_at: now,
          };
          await insertBatch(tx, row, d, shares);
          await appendAudit(tx, {
            scope: 'REWARDS',
            action: 'claims.batch.finalized',
            actor,
            target: id,
            details: {
              merkleRoot: d.root,
              total: d.total.toString(),
              leafCount: d.leaves.length,
              payoutCount: shares.length,
              controlPlaneRequestId: approvedBy,
            },
            at: now,
          });
          return presentBatch({ ...row, seq: '0', frozen_at: null, frozen_reason: null, frozen_by: null, freeze_tx_hash: null });
        });
      } catch (err) {
        // a concurrent finalize batched some of these payouts first
        if (isUniqueViolation(err)) throw appError('NOTHING_TO_DISTRIBUTE', { message: 'A concurrent finalize took these payouts; retry' });
        throw err;
      }
    },

    /**
     * The signed caller reports the transaction of their claim. Accepted only when it succeeded, was sent to
     * the batch's distributor, emitted Claimed for exactly the caller's leaf, and has the confirmations.
     */
    async receipt(actor: HumanActor, body: { batchId: string; txHash: string }) {
      requireEnabled();
      const rpc = requireChain();
      const { batch, leaf } = await callerLeaf(actor, body.batchId, true);
      const txHash = body.txHash.toLowerCase() as Hex;
      if (await findReceipt(db, batch.id, leaf.leaf_index)) throw appError('CLAIM_ALREADY_RECORDED');
      const mined = await rpc.minedTransaction(txHash);
      const mismatch = (message: string) => appError('CLAIM_RECEIPT_MISMATCH', { message });
      if (!mined) throw mismatch('The chain does not know this transaction (not mined, or another chain)');
      if (!mined.succeeded) throw mismatch('The transaction reverted');
      if (mined.to !== batch.distributor_address) throw mismatch("The transaction was not sent to this batch's distributor contract");
      const claims = distributorEvents(mined.logs, batch.distributor_address!, 'Claimed');
      const matches = claims.some(
        (c) =>
          c.batchId.toLowerCase() === batch.chain_batch_id &&
          c.account?.toLowerCase() === leaf.wallet_address &&
          c.amount === BigInt(leaf.amount_base),
      );
      if (!matches) throw mismatch("The transaction carries no Claimed event for your leaf of this batch's manifest");
      if (mined.confirmations < rail.minConfirmations) {
        const missing = rail.minConfirmations - mined.confirmations;
        throw appError('CLAIM_RECEIPT_UNCONFIRMED', {
          message: `The claim has ${mined.confirmations} of ${rail.minConfirmations} confirmations`,
          retryAfterSeconds: missing * BLOCK_SECONDS,
        });
      }
      const now = new Date(clock.now());
      try {
        await withTransaction(transactor, async (tx) => {
          await insertReceipt(tx, {
            batchId: batch.id,
            leafIndex: leaf.leaf_index,
            txHash,
            blockNumber: mined.blockNumber,
            confirmations: mined.confirmations,
            by: actor.actorId,
            at: now,
          });
          await appendAudit(tx, {
            scope: 'REWARDS',
            action: 'claims.receipt.accepted',
            actor,
            target: batch.id,
            details: { leafIndex: leaf.leaf_index, txHash, account: leaf.wallet_address, amount: leaf.amount_base },
            at: now,
          });
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw appError('CLAIM_ALREADY_RECORDED');
        throw err;
      }
      return {
        batchId: batch.id,
        leafIndex: leaf.leaf_index,
        account: leaf.wallet_address,
        amount: amount(BigInt(leaf.amount_base), batch.token_decimals),
        txHash,
        blockNumber: mined.blockNumber.toString(),
        confirmations: mined.confirmations,
        status: 'ACCEPTED' as const,
        claimedCount: await claimedCount(db, batch.id),
        acceptedAt: now.toISOString(),
      };
    },
  };

  /** The batch and the caller's leaf in it (through the caller's recipient); 404, or 409 for a receipt. */
  async function callerLeaf(actor: HumanActor, batchId: string, forReceipt = false) {
    const batch = await findBatch(db, batchId);
    if (!batch) throw notFound('batch');
    const human = actor.verified ? actor.linkedHumanId : undefined;
    const recipient = human ? await recipientOfHuman(db, human) : null;
    const leaf = recipient ? await leafOfRecipient(db, batch.id, recipient.id) : null;
    if (!leaf) {
      if (forReceipt) throw appError('CLAIM_RECEIPT_MISMATCH', { message: 'The manifest of this batch has no leaf of yours' });
      throw notFound('proof');
    }
    return { batch, leaf };
  }
}
