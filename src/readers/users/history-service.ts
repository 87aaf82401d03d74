import type { HumanActor } from '../../platform/auth/types.js';
import type { Clock } from '../../platform/clock.js';
import { withTransaction, type Transactor } from '../../platform/db/transaction.js';
import type { Db } from '../../platform/db/database.js';
import type { ReadersTables } from '../tables.js';
import { countHistory, deleteHistory, recordReadIfAllowed } from './history-repository.js';

/** Whether a reader's preferences allow a personalization history: only an explicit `personalization: true`. */
export function historyAllowed(preferences: Record<string, unknown> | undefined): boolean {
  return preferences?.personalization === true;
}

/**
 * The personalization history: which stories a signed reader read. Privacy by default: nothing is recorded
 * unless the reader's preferences say `personalization: true`; the reader can erase it at any time.
 */
export function createHistoryService(deps: { db: Db<ReadersTables>; transactor: Transactor<ReadersTables>; clock: Clock }) {
  const { db, transactor, clock } = deps;
  return {
    /** Records that the signed reader read `storyId`, when their preferences allow it; answers whether it did. */
    async recordRead(actor: HumanActor, storyId: string): Promise<boolean> {
      return withTransaction(transactor, (tx) => recordReadIfAllowed(tx, actor.actorId, storyId, new Date(clock.now())));
    },

    /** How many stories the reader's history holds: what clearing it would delete (the site's confirmation asks with it). */
    async count(actor: HumanActor): Promise<number> {
      return countHistory(db, actor.actorId);
    },

    /** Erases the reader's personalization history (only that: bookmarks, topics and preferences stay). */
    async clear(actor: HumanActor): Promise<{ actorId: string; cleared: number; clearedAt: string }> {
      const clearedAt = new Date(clock.now());
      const cleared = await withTransaction(transactor, (tx) => deleteHistory(tx, actor.actorId));
      return { actorId: actor.actorId, cleared, clearedAt: clearedAt.toISOString() };
    },
  };
}
