import type { Selectable } from 'kysely';
import type { Hex } from 'viem';
import { identityKey } from '../../platform/auth/admin-policy.js';
import type { HumanActor } from '../../platform/auth/types.js';
import { appendAudit } from '../../platform/audit/audit-log.js';
import type { Clock } from '../../platform/clock.js';
import type { ClaimBatchesTable } from '../rows.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import type { RewardsTables } from '../tables.js';
import { isUniqueViolation, type Db } from '../../platform/db/database.js';
import { appError, notFound } from '../../platform/errors.js';
import { distributorEvents, type ClaimChain } from './chain.js';
import { findBatch, insertEvidence, lockBatch, setBatchFrozen, setBatchUnfrozen } from './repository.js';
import { presentBatch } from './service.js';

type Kind = 'FREEZE' | 'UNFREEZE';

/**
 * Batch freeze and unfreeze (rewards admins). A batch with an on-chain distributor changes state only on
 * verified evidence: a transaction with the required confirmations, successful, sent to the distributor, that
 * emitted BatchFrozen (or BatchUnfrozen) for this batch. Each transaction is evidence once only.
 */
export function createBatchFreezeService(deps: {
  db: Db<RewardsTables>;
  transactor: Transactor<RewardsTables>;
  clock: Clock;
  chain: ClaimChain | null;
  minConfirmations: number;
}) {
  const { db, transactor, clock, chain, minConfirmations } = deps;

  async function verifyEvidence(batch: Selectable<ClaimBatchesTable>, kind: Kind, txHash: string | undefined) {
    if (!txHash) throw appError('BATCH_CHAIN_EVIDENCE_REQUIRED');
    if (!chain) throw appError('CLAIM_RAIL_NOT_CONFIGURED');
    const invalid = (message: string) => appError('BATCH_CHAIN_EVIDENCE_INVALID', { message });
    const mined = await chain.minedTransaction(txHash.toLowerCase() as Hex);
    if (!mined) throw invalid('The chain does not know this transaction');
    if (!mined.succeeded) throw invalid('The transaction reverted');
    if (mined.to !== batch.distributor_address) throw invalid("The transaction was not sent to this batch's distributor contract");
    const events = distributorEvents(mined.logs, batch.distributor_address!, kind === 'FREEZE' ? 'BatchFrozen' : 'BatchUnfrozen');
    if (!events.some((e) => e.batchId.toLowerCase() === batch.chain_batch_id))
      throw invalid(`The transaction did not set this batch ${kind === 'FREEZE' ? 'frozen' : 'unfrozen'} on chain`);
    if (mined.confirmations < minConfirmations)
      throw invalid(`The transaction is not finalized: ${mined.confirmations} of ${minConfirmations} confirmations`);
    return { txHash: txHash.toLowerCase(), blockNumber: mined.blockNumber };
  }

  async function change(actor: HumanActor, batchId: string, kind: Kind, reason: string, txHash: string | undefined) {
    const found = await findBatch(db, batchId);
    if (!found) throw notFound('batch');
    if (kind === 'FREEZE' && found.status === 'FROZEN') throw appError('ALREADY_FROZEN');
    if (kind === 'UNFREEZE' && found.status !== 'FROZEN') throw appError('NOT_FROZEN');
    // a freeze needs evidence when the batch has a distributor; an unfreeze when the freeze was verified on chain
    const needsEvidence = kind === 'FREEZE' ? Boolean(found.distributor_address) : Boolean(found.freeze_tx_hash);
    if (!needsEvidence && txHash) throw appError('BATCH_CHAIN_EVIDENCE_INVALID', { message: 'This batch has no on-chain state to check' });
    const evidence = needsEvidence ? await verifyEvidence(found, kind, txHash) : null;
    const now = new Date(clock.now());
    try {
      return await withTransaction(transactor, async (tx) => {
        const batch = await lockBatch(tx, batchId);
        if (!batch) throw notFound('batch');
        if (kind === 'FREEZE' && batch.status === 'FROZEN') throw appError('ALREADY_FROZEN');
        if (kind === 'UNFREEZE' && batch.status !== 'FROZEN') throw appError('NOT_FROZEN');
        if (evidence) await insertEvidence(tx, { ...evidence, batchId, kind, at: now });
        if (kind === 'FREEZE')
          await setBatchFrozen(tx, batchId, { at: now, reason, by: identityKey(actor), txHash: evidence?.txHash ?? null });
        else await setBatchUnfrozen(tx, batchId, now);
        await appendAudit(tx, {
          scope: 'REWARDS',
          action: kind === 'FREEZE' ? 'claims.batch.frozen' : 'claims.batch.unfrozen',
          actor,
          target: batchId,
          details: { reason, onChainTxHash: evidence?.txHash ?? null },
          at: now,
        });
        return presentBatch((await findBatch(tx, batchId))!);
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw appError('BATCH_CHAIN_EVIDENCE_INVALID', { message: 'This transaction was already used as evidence' });
      throw err;
    }
  }

  return {
    freeze: (actor: HumanActor, batchId: string, body: { reason: string; onChainFreezeTxHash?: string }) =>
      change(actor, batchId, 'FREEZE', body.reason, body.onChainFreezeTxHash),
    unfreeze: (actor: HumanActor, batchId: string, body: { reason: string; onChainUnfreezeTxHash?: string }) =>
      change(actor, batchId, 'UNFREEZE', body.reason, body.onChainUnfreezeTxHash),
  };
}
