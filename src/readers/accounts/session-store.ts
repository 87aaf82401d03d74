import type { SessionStore } from '@fastify/session';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { ReadersTables } from '../tables.js';
import { deleteSession, endedSessionRows, readSession, writeSession } from './repository.js';

/** Ended sessions pruned per session destroyed (a login's rotation, a logout). */
const PRUNE_BATCH = 50;

/**
 * The reader site's session store for @fastify/session, in PostgreSQL: every instance serves every session,
 * and a logout (destroy) ends a session everywhere at once. A session lives until its cookie's expiry (a logged
 * in session: the login's sessionExpiresAt) or, without one (a visitor who only opened the login form),
 * `anonymousTtlMs`. Ended sessions are never read; a few are pruned each time a session is destroyed (every login
 * rotates its session, every logout ends one), not on the writes every form makes.
 */
export function createSessionStore(deps: { db: Db<ReadersTables>; clock: Clock; anonymousTtlMs: number }): SessionStore {
  const { db, clock, anonymousTtlMs } = deps;
  const settle =
    (callback: (err?: unknown) => void) =>
    (err?: unknown): void => {
      callback(err);
    };
  return {
    get(id, callback) {
      readSession(db, id, new Date(clock.now())).then(
        (data) => callback(null, (data ?? null) as never),
        (err: unknown) => callback(err),
      );
    },
    set(id, session, callback) {
      const now = clock.now();
      const expires = session.cookie.expires instanceof Date ? session.cookie.expires : new Date(now + anonymousTtlMs);
      writeSession(db, id, JSON.stringify(session), expires).then(() => callback(), settle(callback));
    },
    destroy(id, callback) {
      deleteSession(db, id)
        .then(() => endedSessionRows.prune(db, new Date(clock.now()), PRUNE_BATCH))
        .then(() => callback(), settle(callback));
    },
  };
}
