import type { Config } from '../../config.js';
import { identityKey, isContentAdmin, onAllowlist } from '../../platform/auth/admin-policy.js';
import type { HumanActor } from '../../platform/auth/types.js';
import type { RequestRow } from './repository.js';

/** Who may do what with control-plane requests. */

/** On the approver allowlist CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS (identity key: bound linkedHumanId first, actorId as fallback, exact case). */
export function isApprover(config: Config, actor: HumanActor): boolean {
  return onAllowlist(config.controlPlane.approverLinkedHumanIds, actor);
}

/** The actor who filed the request: the same identity key, or the same actorId signing under another key. */
export function isRequester(request: Pick<RequestRow, 'requested_by' | 'requested_by_actor_id'>, actor: HumanActor): boolean {
  return identityKey(actor) === request.requested_by || actor.actorId === request.requested_by_actor_id;
}

/** The initiator or a content admin. */
export function mayCancel(config: Config, request: RequestRow, actor: HumanActor): boolean {
  return isRequester(request, actor) || isContentAdmin(config, actor);
}
