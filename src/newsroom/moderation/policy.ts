import { identityKey } from '../../platform/auth/admin-policy.js';
import type { HumanActor } from '../../platform/auth/types.js';
import { appError } from '../../platform/errors.js';

/**
 * Who may moderate. The routes already require a content admin (CONTENT_ADMIN_IDS); a decision that changes
 * what the public reads (resolve, holds, source status, correction, retraction) also needs a verified human:
 * `verified: true` with a linkedHumanId the identity records bind to the actor (tier L2 or L3).
 */
export function requireVerifiedModerator(actor: HumanActor): { by: string; actorId: string } {
  if (!actor.verified || actor.tier === 'L0')
    throw appError('VERIFIED_ACTOR_REQUIRED', {
      message:
        'Moderation decisions need a verified human: sign verified=true with the linkedHumanId your World ID login bound to your actorId',
    });
  return { by: identityKey(actor), actorId: actor.actorId };
}
