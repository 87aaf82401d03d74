import type { Db, Tx } from './database.js';

/** A domain event row written inside a transaction (ledger today; outbox, audit and settlements next). */
export interface RecordedEvent {
  kind: 'ledger';
  id: string;
  storyId: string;
}

/** What one committed transaction changed, handed to the after-commit listeners. */
export interface CommittedChanges {
  /** Stories whose row was locked for writing: their public reads must not be served from before the commit. */
  storiesChanged: ReadonlySet<string>;
  events: readonly RecordedEvent[];
}

/**
 * The events of the transaction in progress. Writers record what they did here; nothing leaves the process
 * until the transaction has committed, and nothing at all when it rolls back.
 */
export interface TxEvents {
  /** Marks a story as changed (the story write lock does this for every writer). */
  storyChanged(storyId: string): void;
  /** Notes a domain event row the caller has just inserted with the same transaction. */
  recorded(event: RecordedEvent): void;
}

/** Runs after a commit; a failure is reported to `onListenerError`, never to the writer whose data committed. */
export type CommitListener = (changes: CommittedChanges) => Promise<void>;

/** The database and what happens after each commit: the one way the service writes. */
export interface Transactor<T> {
  readonly db: Db<T>;
  readonly listeners: readonly CommitListener[];
  readonly onListenerError: (err: unknown) => void;
}

export function createTransactor<T>(
  db: Db<T>,
  listeners: readonly CommitListener[],
  onListenerError: (err: unknown) => void = () => undefined,
): Transactor<T> {
  return { db, listeners, onListenerError };
}

/**
 * Runs `fn` in one database transaction, typed to the transactor's tables (a context's own, handed out by the
 * composition root). The transaction type (`Tx`) is what row-locking repository
 * functions require, so a `FOR UPDATE` outside a transaction does not compile. After the commit, and before
 * this function returns (so before any HTTP response), the listeners act on what the transaction recorded:
 * the read cache moves on for the changed stories, and later the outbox dispatcher wakes up.
 */
export async function withTransaction<R, T>(transactor: Transactor<T>, fn: (tx: Tx<T>, events: TxEvents) => Promise<R>): Promise<R> {
  const storiesChanged = new Set<string>();
  const recorded: RecordedEvent[] = [];
  const events: TxEvents = {
    storyChanged: (storyId) => void storiesChanged.add(storyId),
    recorded: (event) => {
      recorded.push(event);
      storiesChanged.add(event.storyId);
    },
  };
  const result = await transactor.db.transaction().execute((tx) => fn(tx, events));
  const changes: CommittedChanges = { storiesChanged, events: recorded };
  await Promise.all(transactor.listeners.map((listener) => listener(changes).catch(transactor.onListenerError)));
  return result;
}
