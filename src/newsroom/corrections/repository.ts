import type { Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import type { StoryCorrectionsTable } from '../rows.js';

/** SQL of corrections and retractions. */

export async function insertCorrection(tx: Tx<NewsroomTables>, row: StoryCorrectionsTable): Promise<void> {
  await tx.insertInto('story_corrections').values(row).execute();
}

export async function markRetracted(tx: Tx<NewsroomTables>, storyId: string, at: Date): Promise<void> {
  await tx.updateTable('stories').set({ review_status: 'RETRACTED', updated_at: at }).where('id', '=', storyId).execute();
}
