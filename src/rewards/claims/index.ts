import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { errors } from '../../platform/schemas.js';
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

/** The claim rail (docs/claims.md): Merkle distribution batches, proofs, on-chain receipts and batch freezes. */
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
        response: { 200: ClaimStatus, ...errors(429) },
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
        querystring: BatchesQuery,
        response: { 200: BatchList, ...errors(400, 429) },
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
        params: BatchParams,
        querystring: ProofQuery,
        response: { 200: Proof, ...errors(400, 401, 403, 404, 429, 503) },
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
        body: ReceiptBody,
        response: { 202: Receipt, ...errors(400, 401, 403, 404, 409, 425, 429, 503) },
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
        body: FinalizeBody,
        response: { 202: Batch, ...adminErrors },
      },
    },
    async (request, reply) => reply.code(202).send(await claims.finalize(humanActor(request), request.body.claimWindowDays ?? 90)),
  );

  app.post(
    '/v1/admin/rewards/batches/:batchId/freeze',
    {
      config: admin,
      schema: {
        operationId: 'freezeBatch',
        tags,
        summary: 'Freeze a batch (on-chain batches: with the finalized freeze transaction)',
        params: BatchParams,
        body: BatchFreezeBody,
        response: { 202: Batch, ...adminErrors },
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
        params: BatchParams,
        body: BatchUnfreezeBody,
        response: { 202: Batch, ...adminErrors },
      },
    },
    async (request, reply) => reply.code(202).send(await freezes.unfreeze(humanActor(request), request.params.batchId, request.body)),
  );
};
