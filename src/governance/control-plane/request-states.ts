import type { ControlPlaneStatus } from '../rows.js';
import { appError, type ErrorCode } from '../../platform/errors.js';

export type RequestEvent = 'approve' | 'execute' | 'consume' | 'cancel';

/**
 * The life cycle of a control-plane request, as one table of legal transitions. A content admin files it
 * PENDING; each approval keeps it PENDING until the approvals reach CONTROL_PLANE_APPROVAL_MIN, which makes it
 * EXECUTED (approved, ready to authorize its one change); the change consumes it (CONSUMED), in the same
 * transaction as the change. The initiator or a content admin may cancel it before it is consumed; a money
 * request (settlement.run, batch.finalize) only while PENDING (see `cancelledState`).
 */
const REQUEST_TRANSITIONS: Readonly<Record<ControlPlaneStatus, Partial<Record<RequestEvent, ControlPlaneStatus>>>> = {
  PENDING: { approve: 'PENDING', execute: 'EXECUTED', cancel: 'CANCELLED' },
  EXECUTED: { consume: 'CONSUMED', cancel: 'CANCELLED' },
  CONSUMED: {},
  CANCELLED: {},
};

/** The code an illegal move answers: what the caller tried, given where the request is. */
function refusal(from: ControlPlaneStatus, event: RequestEvent): ErrorCode {
  if (event === 'consume') return from === 'CONSUMED' ? 'CONTROL_PLANE_REQUEST_CONSUMED' : 'CONTROL_PLANE_REQUEST_NOT_EXECUTED';
  if (event === 'cancel') return 'CONTROL_PLANE_REQUEST_NOT_CANCELLABLE';
  return 'CONTROL_PLANE_REQUEST_NOT_PENDING';
}

/** The state `event` leads to from `from`; throws the 409 of the refusal when the table has no such move. */
export function nextRequestState(from: ControlPlaneStatus, event: RequestEvent): ControlPlaneStatus {
  const to = REQUEST_TRANSITIONS[from][event];
  if (!to) throw appError(refusal(from, event), { details: [{ path: '/status', code: from, message: `the request is ${from}` }] });
  return to;
}

/**
 * The state cancelling leads to. A money request is cancellable only while PENDING: once a second rewards admin
 * approved it, two people decided, and one of them alone does not take that back (an approved request that is
 * never run pays nothing; any change to what it would pay makes it refused as a mismatch).
 */
export function cancelledState(from: ControlPlaneStatus, money: boolean): ControlPlaneStatus {
  if (money && from !== 'PENDING') {
    throw appError('CONTROL_PLANE_REQUEST_NOT_CANCELLABLE', {
      message: 'A money request can be cancelled only while it waits for its second rewards admin',
      details: [{ path: '/status', code: from, message: `the request is ${from}` }],
    });
  }
  return nextRequestState(from, 'cancel');
}
