import type { Config } from '../../config.js';
import { appError } from '../errors.js';
import { LINKED_HUMAN_ID } from '../schemas.js';
import type { Actor, HumanActor } from './types.js';

/** What an allowlist is matched against: an actor's id and the linked human bound to it. */
export interface AllowlistSubject {
  actorId: string;
  linkedHumanId?: string | undefined;
}

/**
 * The identity key of allowlists: the bound linkedHumanId first, the actorId as fallback, exact case. The
 * authentication hook refuses actorIds of the linked-human form, and a signed linkedHumanId counts only when
 * the identity records bind it to the actor, so a key of that form always comes from the identity records.
 */
export function identityKey(actor: AllowlistSubject): string {
  return actor.linkedHumanId ?? actor.actorId;
}

/**
 * Whether the actor is on an allowlist. An entry of the linked-human form matches only a bound linkedHumanId,
 * never an actorId spelled like one.
 */
export function onAllowlist(list: readonly string[], actor: AllowlistSubject): boolean {
  const key = identityKey(actor);
  if (actor.linkedHumanId === undefined && LINKED_HUMAN_ID.test(key)) return false;
  return list.includes(key);
}

/**
 * A verified human as the service itself knows it: the signed `verified: true` (the front end's word) backed
 * by the identity records, which bind the actor to a linked human recorded at L2 or L3. Operations that carry
 * their own World ID proof (approvals, ratifications) are backed by that proof instead.
 */
export function isVerifiedHuman(actor: HumanActor): boolean {
  return actor.verified && actor.linkedHumanId !== undefined && actor.tier !== 'L0';
}

export function isContentAdmin(config: Config, actor: Actor | null): actor is HumanActor {
  return actor?.kind === 'human' && onAllowlist(config.contentAdminIds, actor);
}

export function isRewardsAdmin(config: Config, actor: Actor | null): actor is HumanActor {
  return actor?.kind === 'human' && onAllowlist(config.rewardsAdminIds, actor);
}

export function requireContentAdmin(config: Config, actor: Actor | null): HumanActor {
  if (!isContentAdmin(config, actor)) throw appError('CONTENT_ADMIN_REQUIRED');
  return actor;
}

export function requireRewardsAdmin(config: Config, actor: Actor | null): HumanActor {
  if (!isRewardsAdmin(config, actor)) throw appError('REWARDS_ADMIN_REQUIRED');
  return actor;
}
