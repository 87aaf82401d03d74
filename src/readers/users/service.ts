import type { HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import type { UsersRepository } from './repository.js';
import type { Preferences, PreferencesResponse } from './schemas.js';

/** A reader's own data. Every method acts on the signed actor only: there is no way to name another user. */
export function createUsersService(deps: { repository: UsersRepository; clock: Clock }) {
  const { repository, clock } = deps;
  return {
    async getPreferences(actor: HumanActor): Promise<PreferencesResponse> {
      const row = await repository.findPreferences(actor.actorId);
      return {
        actorId: actor.actorId,
        preferences: (row?.preferences ?? {}) as Preferences,
        updatedAt: row ? row.updated_at.toISOString() : null,
      };
    },
    async updatePreferences(actor: HumanActor, patch: Preferences): Promise<PreferencesResponse> {
      const row = await repository.mergePreferences(actor.actorId, patch, new Date(clock.now()));
      return { actorId: actor.actorId, preferences: row.preferences as Preferences, updatedAt: row.updated_at.toISOString() };
    },
  };
}
