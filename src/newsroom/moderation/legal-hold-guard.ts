import type { Queryable } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { appError } from '../../platform/errors.js';
import { activeHold } from './repository.js';

/**
 * Refuses a change to a story under an active legal hold (409 LEGAL_HOLD_ACTIVE). Call it after locking the
 * story: placing a hold locks the story too, so a hold and a change cannot pass each other.
 */
export async function assertNoLegalHold(db: Queryable<NewsroomTables>, storyId: string): Promise<void> {
  const hold = await activeHold(db, storyId);
  if (hold) throw appError('LEGAL_HOLD_ACTIVE', { details: [{ path: '/storyId', message: `legal hold ${hold.id} is active` }] });
}
