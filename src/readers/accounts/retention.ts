import { retentionByExpiry, type RetentionStep } from '../../platform/db/retention.js';
import { endedSessionRows } from './repository.js';
import type { ReadersTables } from '../tables.js';

/**
 * The reader site's sessions that have ended (their expiry passed, or a login's end), for the retention command.
 * An ended session is never read again: the store prunes a few each time a session is destroyed, this the rest.
 */
export function endedSessions(now: Date): RetentionStep<ReadersTables> {
  return retentionByExpiry({
    label: 'site sessions that have ended',
    table: 'site_sessions',
    before: now,
    rows: endedSessionRows,
  });
}
