import type { Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import type { TxEvents } from '../../platform/db/transaction.js';
import type { LedgerBucket, LedgerType, StoryState } from '../rows.js';
import { newId } from '../../platform/ids.js';
import { insertLedgerEvent } from './repository.js';

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
export async function recordLedgerEvent(tx: Tx<NewsroomTables>, events: TxEvents, entry: LedgerEntry): Promise<string> {
  const id = newId('le');
  await insertLedgerEvent(tx, { id, ...entry });
  events.recorded({ kind: 'ledger', id, storyId: entry.storyId });
  return id;
}
