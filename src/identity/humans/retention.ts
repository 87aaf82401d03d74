import { retentionByExpiry, type RetentionStep } from '../../platform/db/retention.js';
import type { IdentityTables } from '../tables.js';
import { expiredChallengeRows } from './repository.js';
import { CHALLENGE_PRUNE_AFTER_MS } from './service.js';

/**
 * Login challenges expired for over an hour, for the retention command: the same rows a new challenge prunes a
 * few of (until then, a verify of an expired challenge still answers CHALLENGE_EXPIRED rather than not found).
 */
export function expiredLoginChallenges(now: Date): RetentionStep<IdentityTables> {
  return retentionByExpiry({
    label: 'login challenges expired over an hour ago',
    table: 'login_challenges',
    before: new Date(now.getTime() - CHALLENGE_PRUNE_AFTER_MS),
    rows: expiredChallengeRows,
  });
}
