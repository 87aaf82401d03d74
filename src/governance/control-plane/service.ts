import type { GovernanceTables } from '../tables.js';
import type { Config } from '../../config.js';
import { identityKey, isVerifiedHuman } from '../../platform/auth/admin-policy.js';
import type { HumanActor } from '../../platform/auth/types.js';
import { appendAudit } from '../../platform/audit/audit-log.js';
import type { Clock } from '../../platform/clock.js';
import { pageOf, type CursorCodec } from '../../platform/cursor.js';
import type { Db, Queryable, Tx } from '../../platform/db/database.js';
import type { ControlPlaneAction } from '../rows.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import { appError, notFound, validationFailed } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { boundProof } from '../../identity/humans/proof-body.js';
import type { HumanProof } from '../../identity/humans/proof-verifier.js';
import type { HumanProofVerifier } from '../../identity/humans/proof-verifier.js';
import { EMERGENCY_TARGET, payloadHash } from './gate.js';
import {
  approvableActions,
  GOVERNANCE_ACTIONS,
  MONEY_ACTIONS,
  isApprover,
  isMoneyAction,
  isRequester,
  mayCancel,
  mayFile,
  mayRead,
  MONEY_TARGETS,
  requesterCannotApprove,
} from './policy.js';
import {
  actorIdsOf,
  approvalsOf,
  pendingFor,
  findRequest,
  hasApproved,
  insertApproval,
  insertRequest,
  lockRequest,
  requestsBefore,
  updateRequest,
  type ApprovalRow,
  type RequestRow,
} from './repository.js';
import { cancelledState, nextRequestState } from './request-states.js';
import type {
  ApproveBody,
  CancelBody,
  ControlPlaneRequest,
  ControlPlaneRequestList,
  CreateRequestBody,
  ListRequestsQuery,
} from './schemas.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function present(row: RequestRow, approvals?: ApprovalRow[]): ControlPlaneRequest {
  return {
    id: row.id,
    action: row.action,
    target: row.target,
    payload: row.payload,
    payloadHash: row.payload_hash,
    reason: row.reason,
    status: row.status,
    requestedBy: row.requested_by,
    approvalsRequired: row.approvals_required,
    approvalCount: row.approval_count,
    ...(approvals ? { approvals: approvals.map((a) => ({ approver: a.approver, approvedAt: a.approved_at.toISOString() })) } : {}),
    createdAt: row.created_at.toISOString(),
    executedAt: iso(row.executed_at),
    consumedAt: iso(row.consumed_at),
    consumedBy: row.consumed_by,
    cancelledAt: iso(row.cancelled_at),
    cancelledBy: row.cancelled_by,
    cancelReason: row.cancel_reason,
  };
}

/**
 * Why `actor` cannot approve `request` now, checked on a plain read before the proof goes to the verifier
 * and again under the request's row lock: the request must be PENDING, the requester cannot approve their
 * own request (CONTROL_PLANE_ENFORCE_REQUESTER_CANNOT_APPROVE), and an approver approves once.
 */
async function checkApprovable(db: Queryable<GovernanceTables>, config: Config, request: RequestRow, actor: HumanActor): Promise<void> {
  nextRequestState(request.status, 'approve');
  if (requesterCannotApprove(config, request.action) && isRequester(request, actor))
    throw appError('CONTROL_PLANE_REQUESTER_CANNOT_APPROVE', {
      message: 'You filed this request, so you cannot approve it: another approver must',
    });
  if (await hasApproved(db, request.id, identityKey(actor))) throw appError('CONTROL_PLANE_ALREADY_APPROVED');
}

/**
 * Control-plane requests: a content admin files one for a governance change, CONTROL_PLANE_APPROVAL_MIN
 * distinct allowlisted approvers approve it, each with a verified human proof bound to the request, and the
 * change it names consumes it once (gate.ts). Every step is audited in the CONTROL_PLANE scope of the hash chain.
 */
/**
 * What the control plane asks about the targets of its requests. Governance depends on the control plane (its
 * changes pass the gate), not the reverse: the composition root wires this port to the governance proposals.
 */
export interface ControlPlaneTargets {
  /** Whether a governance proposal with this id exists (the target of governance.activate). */
  proposalExists(id: string): Promise<boolean>;
}

/**
 * Identity's side of a person's proof, in governance's transaction: the verified action is recorded and marked
 * spent by what it approved, so a refusal later in the same transaction spends nothing (wired at the composition
 * root, where the transaction is handed on typed to identity's tables).
 */
export interface ProofSpender {
  spend(tx: Tx<GovernanceTables>, proof: HumanProof, provedBy: string, consumedBy: string, at: Date): Promise<string>;
}

export function createControlPlaneService(deps: {
  db: Db<GovernanceTables>;
  transactor: Transactor<GovernanceTables>;
  clock: Clock;
  config: Config;
  cursors: CursorCodec;
  verifier: HumanProofVerifier;
  proofs: ProofSpender;
  targets: ControlPlaneTargets;
}) {
  const { db, transactor, clock, config, cursors, verifier, proofs, targets } = deps;

  return {
    /** Files a request (the route requires a content admin). The target must fit the action. */
    async create(actor: HumanActor, body: CreateRequestBody): Promise<ControlPlaneRequest> {
      if (!mayFile(config, actor, body.action))
        throw appError(isMoneyAction(body.action) ? 'REWARDS_ADMIN_REQUIRED' : 'CONTENT_ADMIN_REQUIRED');
      const moneyTarget = MONEY_TARGETS[body.action];
      if (moneyTarget !== undefined) {
        if (body.target !== moneyTarget) throw validationFailed([{ path: '/target', message: `${body.action} targets "${moneyTarget}"` }]);
      } else if (body.action === 'governance.activate') {
        if (!(await targets.proposalExists(body.target)))
          throw validationFailed([{ path: '/target', message: 'governance.activate targets the id of an existing proposal' }]);
      } else if (body.target !== EMERGENCY_TARGET) {
        throw validationFailed([{ path: '/target', message: `${body.action} targets "${EMERGENCY_TARGET}"` }]);
      }
      return withTransaction(transactor, async (tx) => {
        const at = new Date(clock.now());
        const row = await insertRequest(tx, {
          id: newId('cpr'),
          action: body.action,
          target: body.target,
          payload: JSON.stringify(body.payload),
          payload_hash: payloadHash(body.payload),
          reason: body.reason,
          requested_by: identityKey(actor),
          requested_by_actor_id: actor.actorId,
          // money: the filer is the first person, one more rewards admin is the second
          approvals_required: isMoneyAction(body.action) ? 1 : config.controlPlane.approvalMin,
          created_at: at,
        });
        await appendAudit(tx, {
          scope: 'CONTROL_PLANE',
          action: 'request.created',
          actor,
          target: row.id,
          details: {
            action: row.action,
            target: row.target,
            payloadHash: row.payload_hash,
            reason: row.reason,
            approvalsRequired: row.approvals_required,
          },
          at,
        });
        return present(row, []);
      });
    },

    /**
     * Requests newest first, optionally of one status and one action, and of one scope (governance changes or
     * money: the console's control plane lists governance, its rewards pages money); keyset cursor on the sequence.
     */
    async list(
      query: Pick<ListRequestsQuery, 'status' | 'action' | 'cursor' | 'limit'>,
      scope: 'governance' | 'money' | 'all' = 'all',
    ): Promise<ControlPlaneRequestList> {
      const kind = `control-plane-requests:${query.status ?? '*'}:${query.action ?? '*'}${scope === 'all' ? '' : `:${scope}`}`;
      const actions = scope === 'all' ? undefined : scope === 'money' ? MONEY_ACTIONS : GOVERNANCE_ACTIONS;
      const limit = query.limit ?? 20;
      const before = query.cursor ? (cursors.decode(kind, query.cursor, ['int8'])[0] as string) : null;
      const rows = await requestsBefore(db, { status: query.status, action: query.action, actions }, before, limit + 1);
      const { items, nextCursor } = pageOf(rows, limit, (last) => cursors.encode(kind, [last.seq]));
      return { items: items.map((row) => present(row)), ...(nextCursor ? { nextCursor } : {}) };
    },

    /**
     * The ids of the PENDING requests of `scope` (governance changes, money: settlement runs and batch finalizes,
     * or one action) that wait for this approver (filed by someone else, not yet approved by them), oldest first,
     * at most `limit`: the console's "waiting for you". Empty for someone who approves none of them.
     */
    async waitingFor(actor: HumanActor, scope: 'governance' | 'money' | ControlPlaneAction = 'governance', limit = 100): Promise<string[]> {
      const inScope = (action: ControlPlaneAction) =>
        scope === 'governance' ? !isMoneyAction(action) : scope === 'money' ? isMoneyAction(action) : action === scope;
      const actions = approvableActions(config, actor).filter(inScope);
      if (!actions.length) return [];
      return pendingFor(db, identityKey(actor), actions, limit);
    },

    /** Refuses someone who may not read requests: content admins and rewards admins may (403 CONTENT_ADMIN_REQUIRED). */
    requireReader(actor: HumanActor): void {
      if (!mayRead(config, actor)) throw appError('CONTENT_ADMIN_REQUIRED');
    },

    /** The actor id behind each identity key that filed or approved one of these requests (to name people). */
    async actorsOf(requestIds: readonly string[]): Promise<Map<string, string>> {
      return new Map((await actorIdsOf(db, requestIds)).map((r) => [r.key, r.actorId]));
    },

    async get(id: string): Promise<ControlPlaneRequest> {
      const row = await findRequest(db, id);
      if (!row) throw notFound('control-plane request');
      return present(row, await approvalsOf(db, id));
    },

    /**
     * One approval: a verified (`verified=true`) allowlisted approver with a proof whose action is
     * `control_plane_approve:<requestId>`; the proof's nullifier is used once. The approval that reaches
     * the request's required count makes it EXECUTED. The request row is locked, so concurrent approvals
     * count one after the other and exactly one of them executes it.
     */
    async approve(actor: HumanActor, id: string, body: ApproveBody): Promise<ControlPlaneRequest> {
      if (!actor.verified) throw appError('VERIFIED_ACTOR_REQUIRED', { message: 'Approving needs a verified human: sign verified=true' });
      const current = await findRequest(db, id);
      if (!current) throw notFound('control-plane request');
      if (!isApprover(config, actor, current.action))
        throw appError(isMoneyAction(current.action) ? 'REWARDS_ADMIN_REQUIRED' : 'CONTROL_PLANE_APPROVER_REQUIRED');
      const proof = boundProof(body, `control_plane_approve:${id}`);
      await checkApprovable(db, config, current, actor);
      await verifier.verify(proof);
      const approver = identityKey(actor);
      return withTransaction(transactor, async (tx) => {
        const at = new Date(clock.now());
        const request = await lockRequest(tx, id);
        if (!request) throw notFound('control-plane request');
        await checkApprovable(tx, config, request, actor);
        const verifiedActionId = await proofs.spend(tx, proof, approver, `control-plane:${id}`, at);
        if (
          !(await insertApproval(tx, {
            request_id: id,
            approver,
            approver_actor_id: actor.actorId,
            verified_action_id: verifiedActionId,
            approved_at: at,
          }))
        ) {
          throw appError('CONTROL_PLANE_ALREADY_APPROVED');
        }
        const approvalCount = request.approval_count + 1;
        const executes = approvalCount >= request.approvals_required;
        const status = nextRequestState(request.status, executes ? 'execute' : 'approve');
        const row = await updateRequest(tx, id, { approval_count: approvalCount, status, ...(executes ? { executed_at: at } : {}) });
        await appendAudit(tx, {
          scope: 'CONTROL_PLANE',
          action: 'request.approved',
          actor,
          target: id,
          details: { approver, provider: proof.provider, verifiedActionId, approvalCount, approvalsRequired: request.approvals_required },
          at,
        });
        if (executes) {
          await appendAudit(tx, {
            scope: 'CONTROL_PLANE',
            action: 'request.executed',
            actor,
            target: id,
            details: { action: row.action, target: row.target, payloadHash: row.payload_hash, approvalCount },
            at,
          });
        }
        return present(row, await approvalsOf(tx, id));
      });
    },

    /**
     * Cancels a request, signing verified=true: a governance one PENDING or EXECUTED, by its initiator or a content
     * admin; a money one only PENDING, by its initiator (policy.ts, request-states.ts).
     */
    async cancel(actor: HumanActor, id: string, body: CancelBody): Promise<ControlPlaneRequest> {
      if (!isVerifiedHuman(actor)) {
        throw appError('VERIFIED_ACTOR_REQUIRED', {
          message: 'Cancelling needs a verified human: verified=true, signed for an actor bound to a linked human by a World ID login',
        });
      }
      return withTransaction(transactor, async (tx) => {
        const at = new Date(clock.now());
        const request = await lockRequest(tx, id);
        if (!request) throw notFound('control-plane request');
        if (!mayCancel(config, request, actor)) throw appError('CONTROL_PLANE_CANCEL_FORBIDDEN');
        const status = cancelledState(request.status, isMoneyAction(request.action));
        const row = await updateRequest(tx, id, {
          status,
          cancelled_at: at,
          cancelled_by: identityKey(actor),
          cancel_reason: body.reason ?? null,
        });
        await appendAudit(tx, {
          scope: 'CONTROL_PLANE',
          action: 'request.cancelled',
          actor,
          target: id,
          details: { from: request.status, reason: body.reason ?? null },
          at,
        });
        return present(row, await approvalsOf(tx, id));
      });
    },
  };
}
