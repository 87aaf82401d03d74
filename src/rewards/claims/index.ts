import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
import type { createBatchFreezeService } from './batch-freeze.js';
import {
  Batch,
  BatchesQuery,
  BatchFreezeBody,
  BatchList,
  BatchParams,
  BatchUnfreezeBody,
  ClaimStatus,
  FinalizeBody,
  Proof,
  ProofQuery,
  Receipt,
  ReceiptBody,
} from './schemas.js';
import type { createClaimsService } from './service.js';

/** The claim rail: Merkle distribution batches, proofs, on-chain receipts and batch freezes. */
export const claimsModule: FastifyPluginAsyncTypebox<{
  claims: ReturnType<typeof createClaimsService>;
  freezes: ReturnType<typeof createBatchFreezeService>;
}> = async (app, { claims, freezes }) => {
  const tags = ['rewards-claims'];
  const admin = { auth: { kind: 'human-write', admin: 'rewards' } } as const;
  const adminErrors = errors(400, 401, 403, 404, 409, 429, 503);

  app.get(
    '/v1/rewards/claims/status',
    {
      config: { auth: { kind: 'public' } },
      schema: {
        operationId: 'getClaimStatus',
        tags,
        summary: 'Claim rail status (disabled by default)',
        description:
          'Public: no credentials, counted against the per-IP read limit. The claim rail is off by default (DISABLED); enabled without a distributor and chain it is NOT_CONFIGURED; ACTIVE when recipients can claim on chain. The answer also gives the distributor contract, the confirmations a receipt needs, the leaf encoding and how many batches exist.',
        response: {
          200: answer(
            ClaimStatus,
            'The state of the claim rail with its distributor contract, confirmations, leaf encoding and batch count.',
          ),
          ...errors(429),
        },
      },
    },
    async () => claims.status(),
  );

  app.get(
    '/v1/rewards/claims/batches',
    {
      config: { auth: { kind: 'public' } },
      schema: {
        operationId: 'listClaimBatches',
        tags,
        summary: 'Distribution batches, newest first (empty while claims are disabled)',
        description:
          'Public: no credentials, counted against the per-IP read limit. Lists the distribution batches newest first (empty while claims are disabled), `limit` 1 to 100 (default 20) with a keyset cursor. Each batch gives what the distributor contract needs: its on-chain id, Merkle root, total, claim deadline and whether it is frozen.',
        querystring: BatchesQuery,
        response: {
          200: answer(BatchList, 'One page of distribution batches, newest first, with nextCursor when there are more.'),
          ...errors(400, 429),
        },
      },
    },
    async (request) => claims.batches(request.query.limit ?? 20, request.query.cursor),
  );

  app.get(
    '/v1/rewards/claims/:batchId/proof',
    {
      config: { auth: { kind: 'human-read' } },
      schema: {
        operationId: 'getClaimProof',
        tags,
        summary: "The caller's leaf and Merkle proof in a batch",
        description:
          "A human signed read of the caller's own data: `userId` must be the signed actorId (403 USER_MISMATCH otherwise). Answers the caller's leaf in a batch and its Merkle proof: send `claim(chainBatchId, account, amount.base, proof)` to the distributor, then report the transaction to POST /v1/rewards/claims/receipts. No such batch, or no leaf of the caller in it, is 404; claims disabled is 404 CLAIMS_DISABLED. After a recorded receipt the answer says claimed with its transaction.",
        params: BatchParams,
        querystring: ProofQuery,
        response: {
          200: answer(
            Proof,
            "The caller's leaf: account, amount, proof, the batch's on-chain id, root and distributor, deadline and whether it was claimed.",
          ),
          ...errors(400, 401, 403, 404, 429, 503),
        },
      },
    },
    async (request) => claims.proof(humanActor(request), request.query.userId, request.params.batchId),
  );

  app.post(
    '/v1/rewards/claims/receipts',
    {
      config: { auth: { kind: 'human-write' } },
      schema: {
        operationId: 'submitClaimReceipt',
        tags,
        summary: 'Report the on-chain transaction of a claim; verified against the chain and the manifest',
        description:
          "A human signed write by the recipient who claimed. The service reads the transaction on chain: it must have succeeded, have gone to the batch's distributor, have emitted Claimed for exactly the caller's leaf and have CLAIM_MIN_CONFIRMATIONS (425 CLAIM_RECEIPT_UNCONFIRMED with retryAfterSeconds before that; 409 CLAIM_RECEIPT_MISMATCH otherwise). A leaf or transaction is recorded once (409 CLAIM_ALREADY_RECORDED); a chain node that does not answer is 503 CHAIN_UNAVAILABLE. The answer is the accepted receipt.",
        body: ReceiptBody,
        response: {
          202: answer(
            Receipt,
            'Accepted: the claim is recorded; the leaf, amount, transaction, block and confirmations, and how many leaves of the batch are claimed.',
          ),
          ...errors(400, 401, 403, 404, 409, 425, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await claims.receipt(humanActor(request), request.body)),
  );

  app.post(
    '/v1/admin/rewards/batches/finalize',
    {
      config: admin,
      schema: {
        operationId: 'finalizeBatch',
        tags,
        summary: 'Build and finalize a distribution batch of the payable payouts (409 until the rail is configured)',
        description:
          'Rewards admins only (REWARDS_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 REWARDS_ADMIN_REQUIRED otherwise). Builds a distribution batch of every PAYABLE payout that no batch carries yet, summed per verified wallet, as an OpenZeppelin standard Merkle tree, with a claim deadline claimWindowDays on (default 90). It needs the claim rail enabled and configured (409 CLAIM_RAIL_NOT_CONFIGURED) and something to pay (409 NOTHING_TO_DISTRIBUTE); a payout is in at most one batch, even when two finalizes race. A total above SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS needs a second rewards admin: without controlPlaneRequestId it is 409 SECOND_APPROVAL_REQUIRED, whose nextAction names the batch.finalize request to file (total, claim window, preview digest); with it, the request must be EXECUTED (approved by another rewards admin) for exactly this batch (409 CONTROL_PLANE_REQUEST_MISMATCH, _NOT_EXECUTED, _CONSUMED otherwise) and is consumed by the finalize. The answer is the batch to register on chain with exactly its values.',
        body: FinalizeBody,
        response: {
          202: answer(
            Batch,
            'Accepted: the batch as finalized: its on-chain id, Merkle root, total, leaf and payout counts and claim deadline.',
          ),
          ...adminErrors,
        },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await claims.finalize(humanActor(request), request.body.claimWindowDays ?? 90, request.body.controlPlaneRequestId)),
  );

  app.post(
    '/v1/admin/rewards/batches/:batchId/freeze',
    {
      config: admin,
      schema: {
        operationId: 'freezeBatch',
        tags,
        summary: 'Freeze a batch (on-chain batches: with the finalized freeze transaction)',
        description:
          "Rewards admins only (REWARDS_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 REWARDS_ADMIN_REQUIRED otherwise). Freezes a batch, with a reason. For a batch registered on chain, the body names the finalized freeze(chainBatchId) transaction, which must have succeeded at the batch's distributor, emitted BatchFrozen for it, have the confirmations and not be used before (409 BATCH_CHAIN_EVIDENCE_REQUIRED or BATCH_CHAIN_EVIDENCE_INVALID); a frozen batch is 409 ALREADY_FROZEN. The answer is the batch, FROZEN.",
        params: BatchParams,
        body: BatchFreezeBody,
        response: { 202: answer(Batch, 'Accepted: the batch, now FROZEN, with the reason and the freeze transaction.'), ...adminErrors },
      },
    },
    async (request, reply) => reply.code(202).send(await freezes.freeze(humanActor(request), request.params.batchId, request.body)),
  );

  app.post(
    '/v1/admin/rewards/batches/:batchId/unfreeze',
    {
      config: admin,
      schema: {
        operationId: 'unfreezeBatch',
        tags,
        summary: 'Unfreeze a batch (after an on-chain freeze: with the finalized unfreeze transaction)',
        description:
          'Rewards admins only (REWARDS_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 REWARDS_ADMIN_REQUIRED otherwise). Unfreezes a frozen batch (409 NOT_FROZEN otherwise), with a reason; after an on-chain freeze the body names the finalized unfreeze(chainBatchId) transaction, checked like the freeze evidence. The answer is the batch, ACTIVE again.',
        params: BatchParams,
        body: BatchUnfreezeBody,
        response: { 202: answer(Batch, 'Accepted: the batch, ACTIVE again.'), ...adminErrors },
      },
    },
    async (request, reply) => reply.code(202).send(await freezes.unfreeze(humanActor(request), request.params.batchId, request.body)),
  );
};
