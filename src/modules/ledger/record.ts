import type { Tx } from '../../platform/db/database.js';
import type { TxEvents } from '../../platform/db/transaction.js';
import type { LedgerBucket, LedgerType, StoryState } from '../../platform/db/schema.js';
import { newId } from '../../platform/ids.js';

export interface LedgerEntry {
  storyId: string;
  type: LedgerType;
  title: string;
  storyState: StoryState;
  editorialState: string;
  promotionState: string;
  bucket: LedgerBucket;
  reason?: string;
  at: Date;
}

/** Appends a ledger event; call inside the transaction that made the change it reports. */
export async function recordLedgerEvent(tx: Tx, events: TxEvents, entry: LedgerEntry): Promise<string> {
  const id = newId('le');
  await tx
    .insertInto('ledger_events')
    .values({
      id,
      story_id: entry.storyId,
      type: entry.type,
      title: entry.title,
      story_state: entry.storyState,
      editorial_state: entry.editorialState,
      promotion_state: entry.promotionState,
      ledger_bucket: entry.bucket,
      reason: entry.reason ?? null,
      created_at: entry.at,
    })
    .execute();
  events.recorded({ kind: 'ledger', id, storyId: entry.storyId });
  return id;
}
