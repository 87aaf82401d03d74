import type { Db } from '../../platform/db/database.js';
import type { HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import * as repository from './repository.js';
import type { Preferences, PreferencesResponse } from './schemas.js';

/** A reader's own data. Every method acts on the signed actor only: there is no way to name another user. */
export function createUsersService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    async getPreferences(actor: HumanActor): Promise<PreferencesResponse> {
      const row = await repository.findPreferences(db, actor.actorId);
      return {
        actorId: actor.actorId,
        preferences: (row?.preferences ?? {}) as Preferences,
        updatedAt: row ? row.updated_at.toISOString() : null,
      };
    },
    async updatePreferences(actor: HumanActor, patch: Preferences): Promise<PreferencesResponse> {
      const row = await repository.mergePreferences(db, actor.actorId, patch, new Date(clock.now()));
      return { actorId: actor.actorId, preferences: row.preferences as Preferences, updatedAt: row.updated_at.toISOString() };
    },
  };
}
