import type { GovernanceTables } from '../tables.js';
import { createHash } from 'node:crypto';
import { identityKey } from '../../platform/auth/admin-policy.js';
import type { HumanActor } from '../../platform/auth/types.js';
import { appendAudit } from '../../platform/audit/audit-log.js';
import { canonicalize } from '../../platform/canonical-json.js';
import type { Tx } from '../../platform/db/database.js';
import type { ControlPlaneAction } from '../rows.js';
import { appError, type ErrorDetail } from '../../platform/errors.js';
import { lockRequest, updateRequest } from './repository.js';
import { nextRequestState } from './request-states.js';

/** The target every emergency action names. */
export const EMERGENCY_TARGET = 'emergency';

/** The payload hash of a request: lowercase hex SHA-256 of the canonical JSON of the payload. */
export function payloadHash(payload: unknown): string {
  return createHash('sha256').update(canonicalize(payload), 'utf8').digest('hex');
}

/** The request a change needs: which action, on which target, with exactly which payload. */
export interface ExpectedRequest {
  action: ControlPlaneAction;
  target: string;
  payload: Record<string, unknown>;
}

export interface GateInput {
  /** FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED */
  explicit: boolean;
  /** `controlPlaneRequestId` of the body */
  requestId: string | undefined;
  expected: ExpectedRequest;
  actor: HumanActor;
  at: Date;
}

/**
 * The control-plane gate of a governance change, inside the change's transaction. With the explicit control
 * plane on, the change needs the id of an EXECUTED request for exactly this action, target and payload
 * (409 CONTROL_PLANE_EXECUTION_REQUIRED / _REQUEST_NOT_FOUND / _REQUEST_MISMATCH / _REQUEST_NOT_EXECUTED /
 * _REQUEST_CONSUMED); the request is consumed here, so it commits with the change or not at all and
 * authorizes one change only. With it off, a request id is optional and, when given, checked the same way.
 * Returns the consumed request id, or null when none was needed nor given.
 */
export async function passControlPlaneGate(tx: Tx<GovernanceTables>, input: GateInput): Promise<string | null> {
  const { expected } = input;
  if (input.requestId === undefined) {
    if (!input.explicit) return null;
    throw appError('CONTROL_PLANE_EXECUTION_REQUIRED', {
      nextAction: `File POST /v1/admin/control-plane/requests with ${JSON.stringify({ action: expected.action, target: expected.target, payload: expected.payload })} and a reason; once it is EXECUTED, send its id as controlPlaneRequestId`,
    });
  }
  const request = await lockRequest(tx, input.requestId);
  if (!request) throw appError('CONTROL_PLANE_REQUEST_NOT_FOUND', { message: `No control-plane request has the id ${input.requestId}` });
  const mismatches: ErrorDetail[] = [];
  if (request.action !== expected.action)
    mismatches.push({ path: '/action', message: `the request is for ${request.action}, this change is ${expected.action}` });
  if (request.target !== expected.target)
    mismatches.push({ path: '/target', message: `the request targets ${request.target}, this change targets ${expected.target}` });
  const hash = payloadHash(expected.payload);
  if (request.payload_hash !== hash)
    mismatches.push({
      path: '/payloadHash',
      message: `the request's payload hash is ${request.payload_hash}; this change's payload ${canonicalize(expected.payload)} hashes to ${hash}`,
    });
  if (mismatches.length) throw appError('CONTROL_PLANE_REQUEST_MISMATCH', { details: mismatches });
  const status = nextRequestState(request.status, 'consume');
  const consumedBy = `${expected.action}:${expected.target}`;
  await updateRequest(tx, request.id, { status, consumed_at: input.at, consumed_by: consumedBy });
  await appendAudit(tx, {
    scope: 'CONTROL_PLANE',
    action: 'request.consumed',
    actor: input.actor,
    target: request.id,
    details: {
      action: request.action,
      target: request.target,
      payloadHash: request.payload_hash,
      consumedBy,
      consumer: identityKey(input.actor),
    },
    at: input.at,
  });
  return request.id;
}
