import { randomBytes } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { ReadersTables } from '../tables.js';
import { accountCreatedAt, claimAccount } from './repository.js';

/** What the accounts need of the identity records: handing a login over to the person's account. */
export interface LoginHandOver {
  handOverLogin(from: string, to: string, linkedHumanId: string): Promise<{ sessionExpiresAt: string }>;
}

/**
 * The reader site's accounts: one per person (per linked human a World ID login proved). The site signs for a
 * person with their account id, an id of its own: `acct_` + 30 lowercase hex, which can never take the
 * linked-human form (`h_` + 32 hex). A login starts under a fresh id (the login needs an actorId before the
 * person is known); a person's first login keeps it as their account, a later one hands the login over to the
 * account they have, so the same person finds the same bookmarks, topics and history from any browser.
 */
export function createAccountsService(deps: { db: Db<ReadersTables>; clock: Clock; identity: LoginHandOver }) {
  const { db, clock, identity } = deps;
  return {
    /** When the person first logged in on the site (their profile's "reading since"), or null for another actor. */
    joinedAt: async (accountId: string): Promise<string | null> => (await accountCreatedAt(db, accountId))?.toISOString() ?? null,

    newLoginHandle: () => `acct_${randomBytes(15).toString('hex')}`,

    /** The account of the person `handle` was just logged in as, and the session end if the login moved. */
    async settleLogin(handle: string, linkedHumanId: string): Promise<{ accountId: string; sessionExpiresAt?: string }> {
      const accountId = await claimAccount(db, handle, linkedHumanId, new Date(clock.now()));
      if (accountId === handle) return { accountId };
      const { sessionExpiresAt } = await identity.handOverLogin(handle, accountId, linkedHumanId);
      return { accountId, sessionExpiresAt };
    },
  };
}
