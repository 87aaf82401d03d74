import type { Config } from '../../config.js';
import { appError } from '../errors.js';
import type { Actor, HumanActor } from './types.js';

/** The identity key of allowlists: linkedHumanId first, actorId as fallback, exact case. */
export function identityKey(actor: HumanActor): string {
  return actor.linkedHumanId ?? actor.actorId;
}

export function isContentAdmin(config: Config, actor: Actor | null): actor is HumanActor {
  return actor?.kind === 'human' && config.contentAdminIds.includes(identityKey(actor));
}

export function isRewardsAdmin(config: Config, actor: Actor | null): actor is HumanActor {
  return actor?.kind === 'human' && config.rewardsAdminIds.includes(identityKey(actor));
}

export function requireContentAdmin(config: Config, actor: Actor | null): HumanActor {
  if (!isContentAdmin(config, actor)) throw appError('CONTENT_ADMIN_REQUIRED');
  return actor;
}

export function requireRewardsAdmin(config: Config, actor: Actor | null): HumanActor {
  if (!isRewardsAdmin(config, actor)) throw appError('REWARDS_ADMIN_REQUIRED');
  return actor;
}
