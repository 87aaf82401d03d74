import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Statements sent on one transaction without waiting for each answer: the connection runs them in the order
 * sent while the process prepares the next one, so the database and the process work at the same time (a
 * settlement run builds its next payout batch and its published inputs while the database inserts the
 * previous batch). Each statement is marked handled as it is sent; `done()` waits for every one of them and
 * then fails with the first that failed (the later ones fail only because the transaction was aborted).
 */
export function statementPipeline() {
  const sent: Promise<unknown>[] = [];
  return {
    async send(statement: Promise<unknown>): Promise<void> {
      statement.catch(() => undefined);
      sent.push(statement);
      // one turn of the event loop: the statement leaves before the caller's next synchronous work
      await nextTurn();
    },
    async done(): Promise<void> {
      const results = await Promise.allSettled(sent);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
}
