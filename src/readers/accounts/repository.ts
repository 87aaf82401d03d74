import type { Queryable } from '../../platform/db/database.js';
import type { ReadersTables } from '../tables.js';
import { expiringRowsById } from '../../platform/db/retention.js';

/** SQL of the reader site's accounts and browser sessions (migrations/0005_readers.sql). */

/**
 * The account of `linkedHumanId`: `accountId` when the person has none yet, else the one they have (the
 * unique key decides between two first logins of one person at once). Its last login moves to `now`.
 */
export async function claimAccount(db: Queryable<ReadersTables>, accountId: string, linkedHumanId: string, now: Date): Promise<string> {
  const row = await db
    .insertInto('site_accounts')
    .values({ account_id: accountId, linked_human_id: linkedHumanId, created_at: now, last_login_at: now })
    .onConflict((oc) => oc.column('linked_human_id').doUpdateSet({ last_login_at: now }))
    .returning('account_id')
    .executeTakeFirstOrThrow();
  return row.account_id;
}

/** When the account was made (the person's first login on the site), or null for an actor that is no site account. */
export async function accountCreatedAt(db: Queryable<ReadersTables>, accountId: string): Promise<Date | null> {
  const row = await db.selectFrom('site_accounts').select('created_at').where('account_id', '=', accountId).executeTakeFirst();
  return row?.created_at ?? null;
}

export async function readSession(db: Queryable<ReadersTables>, id: string, now: Date): Promise<unknown> {
  const row = await db.selectFrom('site_sessions').select('data').where('id', '=', id).where('expires_at', '>', now).executeTakeFirst();
  return row?.data ?? null;
}

export async function writeSession(db: Queryable<ReadersTables>, id: string, data: string, expiresAt: Date): Promise<void> {
  await db
    .insertInto('site_sessions')
    .values({ id, data, expires_at: expiresAt })
    .onConflict((oc) => oc.column('id').doUpdateSet({ data, expires_at: expiresAt }))
    .execute();
}

export async function deleteSession(db: Queryable<ReadersTables>, id: string): Promise<void> {
  await db.deleteFrom('site_sessions').where('id', '=', id).execute();
}

/**
 * Removes up to `limit` sessions that ended before `before`, oldest first (from `from` on: the retention command
 * resumes where its last batch stopped), skipping a session a request holds locked; answers their expiries.
 */
export const endedSessionRows = expiringRowsById<ReadersTables>('site_sessions');
