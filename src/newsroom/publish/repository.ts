import type { Insertable } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import type { SafetyTracesTable } from '../rows.js';

/** SQL of publish compute: the candidate's story and the safety traces. */

export async function candidateStoryId(db: Queryable<NewsroomTables>, hash: string): Promise<string | null> {
  return (await db.selectFrom('candidates').select('story_id').where('hash', '=', hash).executeTakeFirst())?.story_id ?? null;
}

export async function insertSafetyTrace(tx: Tx<NewsroomTables>, row: Insertable<SafetyTracesTable>): Promise<void> {
  await tx.insertInto('safety_traces').values(row).execute();
}
