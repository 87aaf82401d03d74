import type { Db } from '../../platform/db/database.js';
import type { ReadersTables } from '../tables.js';
import type { HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import { statementBatcher } from '../../platform/db/bulk/statement-batcher.js';
import * as repository from './repository.js';
import type { Preferences, PreferencesResponse } from './schemas.js';

/** A reader's own data. Every method acts on the signed actor only: there is no way to name another user. */
export function createUsersService(deps: { db: Db<ReadersTables>; clock: Clock }) {
  const { db, clock } = deps;
  /**
   * Preference writes that arrive together share one statement (group commit): up to 4 statements of up to 64
   * readers each in flight at once, never the same reader twice in one; each write is answered once its statement
   * has committed.
   */
  const merge = statementBatcher<repository.PreferencesPatch, Awaited<ReturnType<typeof repository.mergePreferences>>[number]>({
    maxBatch: 64,
    maxInFlight: 4,
    key: (p) => p.actorId,
    run: (patches) => repository.mergePreferences(db, patches),
  });
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
      const row = await merge({ actorId: actor.actorId, patch, at: new Date(clock.now()) });
      return { actorId: actor.actorId, preferences: row.preferences as Preferences, updatedAt: row.updated_at.toISOString() };
    },
  };
}
