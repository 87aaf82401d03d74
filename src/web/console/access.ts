import type { Config } from '../../config.js';
import { identityKey, onAllowlist } from '../../platform/auth/admin-policy.js';
import type { HumanActor } from '../../platform/auth/types.js';
import type { SiteReader } from '../site/session.js';

/** The allowlists that open the console's areas (the same lists, and the same identity key, as the API's checks). */
export interface ConsoleAllowlists {
  contentAdminIds: readonly string[];
  rewardsAdminIds: readonly string[];
  approverIds: readonly string[];
}

export const allowlistsOf = (config: Config): ConsoleAllowlists => ({
  contentAdminIds: config.contentAdminIds,
  rewardsAdminIds: config.rewardsAdminIds,
  approverIds: config.controlPlane.approverLinkedHumanIds,
});

/** What one person may do in the console. */
export interface ConsoleRoles {
  contentAdmin: boolean;
  rewardsAdmin: boolean;
  approver: boolean;
}

export type ConsoleArea = 'moderation' | 'governance' | 'control-plane' | 'integrity' | 'audit' | 'rewards';

/** The console's areas in the order of its navigation, with the role each needs (the API's rule for its reads). */
export const AREAS: ReadonlyArray<{ area: ConsoleArea; opens: (roles: ConsoleRoles) => boolean }> = [
  { area: 'moderation', opens: (r) => r.contentAdmin },
  { area: 'governance', opens: (r) => r.contentAdmin },
  // reading the queue is a content admin's read in the API: an approver who is not one cannot see what to approve
  { area: 'control-plane', opens: (r) => r.contentAdmin },
  { area: 'integrity', opens: (r) => r.contentAdmin },
  { area: 'audit', opens: (r) => r.contentAdmin },
  { area: 'rewards', opens: (r) => r.rewardsAdmin },
];

/** The actor the site signs as for a logged-in person (their account, bound to their linked human, verified). */
export const consoleActor = (reader: SiteReader): HumanActor => ({
  kind: 'human',
  actorId: reader.accountId,
  verified: true,
  linkedHumanId: reader.linkedHumanId,
  tier: 'L3',
});

export function rolesOf(lists: ConsoleAllowlists, reader: SiteReader): ConsoleRoles {
  const actor = consoleActor(reader);
  return {
    contentAdmin: onAllowlist(lists.contentAdminIds, actor),
    rewardsAdmin: onAllowlist(lists.rewardsAdminIds, actor),
    approver: onAllowlist(lists.approverIds, actor),
  };
}

/** The key an operator puts on an allowlist to give this person access. */
export const allowlistKeyOf = (reader: SiteReader): string => identityKey(consoleActor(reader));

export const openAreas = (roles: ConsoleRoles): ConsoleArea[] => AREAS.filter((a) => a.opens(roles)).map((a) => a.area);
