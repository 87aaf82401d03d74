import { randomBytes } from 'node:crypto';
import type { Db } from '../../platform/db/database.js';
import type { ReadersTables } from '../tables.js';
import * as repository from './repository.js';

/**
 * A reader's notification state: when they last looked (what came after is unread) and the private token of their
 * Atom feed (random, 24 bytes; made on first request, replaced on request, when the old address stops working).
 */
export function createReaderNotificationsService(deps: { db: Db<ReadersTables>; now: () => number }) {
  const { db, now } = deps;
  return {
    async seenAt(actorId: string): Promise<Date | null> {
      return (await repository.stateOf(db, actorId))?.seen_at ?? null;
    },
    markSeen: (actorId: string) => repository.markSeen(db, actorId, new Date(now())),
    /** The reader's feed token, made on first use. */
    async feedToken(actorId: string): Promise<string> {
      const existing = (await repository.stateOf(db, actorId))?.feed_token;
      if (existing) return existing;
      return this.renewFeedToken(actorId);
    },
    async renewFeedToken(actorId: string): Promise<string> {
      const token = randomBytes(24).toString('base64url');
      await repository.setFeedToken(db, actorId, token, new Date(now()));
      return token;
    },
    /** Whose feed a token opens; null for a token nobody holds (a replaced one included). */
    holderOf: (token: string) => repository.holderOfToken(db, token),
  };
}

export type ReaderNotificationsService = ReturnType<typeof createReaderNotificationsService>;
