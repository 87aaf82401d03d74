import { Type, type Static } from '@sinclair/typebox';
import { CursorParam, NextCursor } from '../../platform/cursor.js';
import { DateTime, HumanActorBody, HumanActorQuery, Nullable, Sha256Hex } from '../../platform/schemas.js';
import { StringEnum } from '../../platform/string-enum.js';
import { HumanProofBody } from '../../identity/humans/proof-body.js';
import { approveControlPlaneRequestExample, controlPlaneRequestExample, createControlPlaneRequestExample } from './examples.js';

/** Control-plane requests: filing, listing, reading, approving and cancelling. */

export const CONTROL_PLANE_ACTIONS = [
  'governance.activate',
  'governance.emergency.apply',
  'governance.emergency.clear',
  'settlement.run',
  'batch.finalize',
] as const;
export const CONTROL_PLANE_STATUSES = ['PENDING', 'EXECUTED', 'CONSUMED', 'CANCELLED'] as const;

/** Ids of requests and proposals: opaque URL-safe strings. */
export const RecordId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
export const RequestParams = Type.Object({ id: RecordId });

const ActionSchema = StringEnum(CONTROL_PLANE_ACTIONS, {
  description:
    'governance.activate (target: a proposal id, payload {changes}), governance.emergency.apply (target: emergency, payload {overlay}), governance.emergency.clear (target: emergency, payload {emergencyId}), settlement.run (target: settlement, payload {totalPoolOrbs, previewDigest}), batch.finalize (target: batch, payload {totalOrbs, claimWindowDays, previewDigest})',
});
const Payload = Type.Record(Type.String({ minLength: 1, maxLength: 200 }), Type.Unknown(), {
  maxProperties: 50,
  description: 'What the change will do, exactly; its SHA-256 over the canonical JSON is what approvers approve',
});

export const CreateRequestBody = Type.Object(
  {
    ...HumanActorBody,
    action: ActionSchema,
    target: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_-]+$',
      description: 'a proposal id, `emergency`, `settlement` or `batch`',
    }),
    payload: Payload,
    reason: Type.String({ minLength: 1, maxLength: 2000 }),
  },
  {
    title: 'CreateControlPlaneRequest',
    description: 'Body that files a control-plane request: the action, its target, the exact payload approvers approve, and why.',
    examples: [createControlPlaneRequestExample],
    additionalProperties: false,
  },
);
export type CreateRequestBody = Static<typeof CreateRequestBody>;

export const ListRequestsQuery = Type.Object(
  {
    ...HumanActorQuery,
    status: Type.Optional(StringEnum(CONTROL_PLANE_STATUSES)),
    action: Type.Optional(ActionSchema),
    cursor: CursorParam,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);
export type ListRequestsQuery = Static<typeof ListRequestsQuery>;

export const ReadRequestQuery = Type.Object(HumanActorQuery, { additionalProperties: false });

export const ApproveBody = Type.Object(
  { ...HumanActorBody, ...HumanProofBody },
  {
    title: 'ApproveControlPlaneRequest',
    examples: [approveControlPlaneRequestExample],
    additionalProperties: false,
    description:
      'A verified human proof with action control_plane_approve:<requestId> (docs/api-conventions.md, "Human proofs"; docs/governance.md)',
  },
);
export type ApproveBody = Static<typeof ApproveBody>;

export const CancelBody = Type.Object(
  { ...HumanActorBody, reason: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })) },
  {
    title: 'CancelControlPlaneRequest',
    description: 'Body that cancels a control-plane request: the actor fields and, optionally, why.',
    additionalProperties: false,
  },
);
export type CancelBody = Static<typeof CancelBody>;

export const ControlPlaneRequest = Type.Object(
  {
    id: Type.String(),
    action: ActionSchema,
    target: Type.String(),
    payload: Type.Unknown(),
    payloadHash: Sha256Hex,
    reason: Type.String(),
    status: StringEnum(CONTROL_PLANE_STATUSES, {
      description: 'PENDING (collecting approvals) → EXECUTED (ready to be consumed) → CONSUMED; PENDING | EXECUTED → CANCELLED',
    }),
    requestedBy: Type.String({ description: 'identity key of the initiator (linkedHumanId, else actorId)' }),
    approvalsRequired: Type.Integer(),
    approvalCount: Type.Integer(),
    approvals: Type.Optional(Type.Array(Type.Object({ approver: Type.String(), approvedAt: DateTime }))),
    createdAt: DateTime,
    executedAt: Nullable(DateTime),
    consumedAt: Nullable(DateTime),
    consumedBy: Nullable(Type.String()),
    cancelledAt: Nullable(DateTime),
    cancelledBy: Nullable(Type.String()),
    cancelReason: Nullable(Type.String()),
  },
  {
    title: 'ControlPlaneRequest',
    description:
      'A change that needs several people before it happens: its action, target and payload (with the hash approvers approve), its state (PENDING, EXECUTED, CONSUMED, CANCELLED) and its approvals.',
    examples: [controlPlaneRequestExample],
  },
);
export type ControlPlaneRequest = Static<typeof ControlPlaneRequest>;

export const ControlPlaneRequestList = Type.Object(
  {
    items: Type.Array(ControlPlaneRequest, { description: 'Newest first' }),
    nextCursor: NextCursor,
  },
  {
    title: 'ControlPlaneRequestList',
    description: 'One page of control-plane requests, newest first; nextCursor is present when there is a next page.',
  },
);
export type ControlPlaneRequestList = Static<typeof ControlPlaneRequestList>;
