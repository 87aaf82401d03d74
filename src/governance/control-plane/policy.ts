import type { Config } from '../../config.js';
import { identityKey, isContentAdmin, isRewardsAdmin, onAllowlist } from '../../platform/auth/admin-policy.js';
import type { HumanActor } from '../../platform/auth/types.js';
import type { ControlPlaneAction } from '../rows.js';
import type { RequestRow } from './repository.js';

/** Who may do what with control-plane requests. */

/** The actions that move money: a settlement run and a claim batch finalize above the second-approval threshold. */
export const MONEY_ACTIONS: readonly ControlPlaneAction[] = ['settlement.run', 'batch.finalize'];
/** The actions of governance changes (emergency measures, activations). */
export const GOVERNANCE_ACTIONS: readonly ControlPlaneAction[] = [
  'governance.activate',
  'governance.emergency.apply',
  'governance.emergency.clear',
];

export const isMoneyAction = (action: ControlPlaneAction): boolean => MONEY_ACTIONS.includes(action);

/** The target every money request names: what it pays out. */
export const MONEY_TARGETS: Readonly<Record<string, string>> = { 'settlement.run': 'settlement', 'batch.finalize': 'batch' };

/**
 * Approves requests of `action`: for governance changes, the approver allowlist CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS
 * (identity key: bound linkedHumanId first, actorId as fallback, exact case); for money, another rewards admin.
 */
export function isApprover(config: Config, actor: HumanActor, action: ControlPlaneAction): boolean {
  if (isMoneyAction(action)) return isRewardsAdmin(config, actor);
  return onAllowlist(config.controlPlane.approverLinkedHumanIds, actor);
}

/** The actions this person may approve (the console's "waiting for you"): none, governance's, money's, or both. */
export function approvableActions(config: Config, actor: HumanActor): ControlPlaneAction[] {
  return [...GOVERNANCE_ACTIONS, ...MONEY_ACTIONS].filter((action) => isApprover(config, actor, action));
}

/** Files requests of `action`: content admins for governance changes, rewards admins for money. */
export function mayFile(config: Config, actor: HumanActor, action: ControlPlaneAction): boolean {
  return isMoneyAction(action) ? isRewardsAdmin(config, actor) : isContentAdmin(config, actor);
}

/** Reads requests: content admins and rewards admins (each files and approves its own kind). */
export function mayRead(config: Config, actor: HumanActor): boolean {
  return isContentAdmin(config, actor) || isRewardsAdmin(config, actor);
}

/** The actor who filed the request: the same identity key, or the same actorId signing under another key. */
export function isRequester(request: Pick<RequestRow, 'requested_by' | 'requested_by_actor_id'>, actor: HumanActor): boolean {
  return identityKey(actor) === request.requested_by || actor.actorId === request.requested_by_actor_id;
}

/** Whether the requester is refused as an approver: always for money, by CONTROL_PLANE_ENFORCE_REQUESTER_CANNOT_APPROVE otherwise. */
export function requesterCannotApprove(config: Config, action: ControlPlaneAction): boolean {
  return isMoneyAction(action) || config.controlPlane.enforceRequesterCannotApprove;
}

/**
 * Governance: the initiator, or any content admin. Money: the initiator only. Cancelling a money request withdraws
 * one person's ask; another rewards admin who disagrees declines by not approving, and without this rule one
 * rewards admin could silently veto every payout the other files.
 */
export function mayCancel(config: Config, request: RequestRow, actor: HumanActor): boolean {
  if (isMoneyAction(request.action)) return isRequester(request, actor);
  return isRequester(request, actor) || mayFile(config, actor, request.action);
}
