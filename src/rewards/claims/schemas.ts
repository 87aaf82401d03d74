import { Type } from '@sinclair/typebox';
import { CursorParam, NextCursor } from '../../platform/cursor.js';
import { DateTime, HumanActorBody, HumanActorQuery, Identifier } from '../../platform/schemas.js';
import { Amount, MoneyRequestId } from '../money/schemas.js';
import { claimBatchExample, claimProofExample, claimReceiptExample, claimStatusExample } from './examples.js';

const TxHash = Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: '0x followed by 64 hex characters' });
const Address = Type.String({ pattern: '^0x[0-9a-f]{40}$' });
const Bytes32 = Type.String({ pattern: '^0x[0-9a-f]{64}$' });
const Reason = Type.String({ minLength: 1, maxLength: 2000 });
const LeafEncoding = Type.Array(Type.String(), { description: 'OpenZeppelin StandardMerkleTree leaf types: ["address", "uint256"]' });

export const ClaimStatus = Type.Object(
  {
    enabled: Type.Boolean(),
    state: Type.Union([Type.Literal('DISABLED'), Type.Literal('NOT_CONFIGURED'), Type.Literal('ACTIVE')]),
    distributorAddress: Type.Union([Address, Type.Null()]),
    minConfirmations: Type.Integer(),
    leafEncoding: LeafEncoding,
    batchCount: Type.Integer(),
  },
  {
    title: 'ClaimStatus',
    description:
      'The state of the claim rail (DISABLED, NOT_CONFIGURED, ACTIVE) with its distributor contract and the confirmations a receipt needs.',
    examples: [claimStatusExample],
  },
);

export const Batch = Type.Object(
  {
    id: Type.String(),
    chainBatchId: Type.String({ description: "keccak256 of the id: the batch's key in the distributor contract" }),
    merkleRoot: Bytes32,
    distributorAddress: Type.Union([Address, Type.Null()]),
    leafEncoding: LeafEncoding,
    total: Amount,
    leafCount: Type.Integer(),
    payoutCount: Type.Integer(),
    claimDeadline: DateTime,
    status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('FROZEN')]),
    frozen: Type.Boolean(),
    frozenReason: Type.Union([Type.String(), Type.Null()]),
    onChainFreezeTxHash: Type.Union([Type.String(), Type.Null()]),
    finalizedBy: Type.String(),
    createdAt: DateTime,
  },
  {
    title: 'ClaimBatch',
    description:
      'A distribution batch: the Merkle tree of PAYABLE payouts summed per wallet, with its on-chain id, root, distributor, total, claim deadline and whether it is frozen.',
    examples: [claimBatchExample],
  },
);

export const BatchesQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })), cursor: CursorParam },
  { additionalProperties: false },
);
export const BatchList = Type.Object(
  { items: Type.Array(Batch), nextCursor: NextCursor },
  { title: 'BatchPage', description: 'One page of distribution batches, newest first; nextCursor is present when there is a next page.' },
);

export const BatchParams = Type.Object({ batchId: Identifier });
export const ProofQuery = Type.Object({ ...HumanActorQuery, userId: Identifier }, { additionalProperties: false });
export const Proof = Type.Object(
  {
    batchId: Type.String(),
    chainBatchId: Bytes32,
    merkleRoot: Bytes32,
    distributorAddress: Type.Union([Address, Type.Null()]),
    claimDeadline: DateTime,
    batchStatus: Type.String(),
    leafIndex: Type.Integer(),
    account: Address,
    amount: Amount,
    proof: Type.Array(Bytes32),
    claimed: Type.Boolean(),
    claimTxHash: Type.Union([Type.String(), Type.Null()]),
  },
  {
    title: 'ClaimProof',
    description:
      "A recipient's leaf in a distribution batch and its Merkle proof: what the distributor's claim() needs, and whether it was claimed.",
    examples: [claimProofExample],
  },
);

export const ReceiptBody = Type.Object(
  { ...HumanActorBody, batchId: Identifier, txHash: TxHash },
  {
    title: 'ClaimReceiptRequest',
    description: 'Body that reports a claim transaction: the batch and the transaction hash.',
    additionalProperties: false,
  },
);
export const Receipt = Type.Object(
  {
    batchId: Type.String(),
    leafIndex: Type.Integer(),
    account: Address,
    amount: Amount,
    txHash: Type.String(),
    blockNumber: Type.String(),
    confirmations: Type.Integer(),
    status: Type.Literal('ACCEPTED'),
    claimedCount: Type.Integer(),
    acceptedAt: DateTime,
  },
  {
    title: 'ClaimReceipt',
    description: 'A claim recorded from the chain: the leaf, the amount, the transaction, its block and confirmations.',
    examples: [claimReceiptExample],
  },
);

export const FinalizeBody = Type.Object(
  {
    ...HumanActorBody,
    claimWindowDays: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 365,
        default: 90,
        description: 'Days until the claim deadline; unclaimed funds are swept after it',
      }),
    ),
    controlPlaneRequestId: MoneyRequestId(
      'An EXECUTED batch.finalize control-plane request for exactly this batch: needed above SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS (docs/rewards.md, "Two people for money")',
    ),
  },
  {
    title: 'FinalizeBatchRequest',
    description: 'Body that finalizes a distribution batch: the actor fields and the days until the claim deadline.',
    additionalProperties: false,
  },
);

/** Section 2 of the interface description: no extra properties, `reason` required, the tx hash pattern. */
export const BatchFreezeBody = Type.Object(
  { ...HumanActorBody, reason: Reason, onChainFreezeTxHash: Type.Optional(TxHash) },
  {
    title: 'FreezeBatchRequest',
    description: 'Body that freezes a batch: why, and for a batch on chain the finalized freeze transaction.',
    additionalProperties: false,
  },
);
export const BatchUnfreezeBody = Type.Object(
  { ...HumanActorBody, reason: Reason, onChainUnfreezeTxHash: Type.Optional(TxHash) },
  {
    title: 'UnfreezeBatchRequest',
    description: 'Body that unfreezes a batch: why, and after an on-chain freeze the finalized unfreeze transaction.',
    additionalProperties: false,
  },
);
